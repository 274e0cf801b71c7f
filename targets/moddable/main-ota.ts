/**
 * The full firmware with over-the-air updates (`npm run bundle:ota`; docs/ota.md):
 * every board feature of main.ts, and updates (feature-ota.ts). Its size is
 * checked apart from the full firmware's (`npm run size:check`). manifest.json
 * links the SDK's `ota` and our `bootslots` module for ESP32, and their
 * simulations for lin.
 */
import { boardSerial } from './board-serial.js';
import { boot } from './boot.js';
import { gnssFeature } from './feature-gnss.js';
import { modbusFeature } from './feature-modbus.js';
import { updatesFeature } from './feature-ota.js';

export default function main(): void {
  boot({ gnss: gnssFeature, modbus: modbusFeature, serial: boardSerial, updates: updatesFeature });
}
