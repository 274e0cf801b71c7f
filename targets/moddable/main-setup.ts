/**
 * The provisionable firmware's composition root (`npm run bundle`, the default
 * for a board and for mcsim): every feature of main.ts plus setup mode
 * (setup-mode.ts, booted by setup-boot.ts), so that a board with no token (or
 * no Wi-Fi settings), or with its setup button held at boot, serves the setup
 * page and `POST /setup` (decisions 11) instead of starting the agent. main.ts
 * is the same firmware without setup mode (`npm run bundle:full`), for boards
 * provisioned otherwise.
 */
import { boardSerial } from './board-serial.js';
import { gnssFeature } from './feature-gnss.js';
import { modbusFeature } from './feature-modbus.js';
import { bootWithSetup } from './setup-boot.js';
import { setupFeature } from './setup-mode.js';

export default function main(): void {
  bootWithSetup({ gnss: gnssFeature, modbus: modbusFeature, serial: boardSerial }, setupFeature);
}
