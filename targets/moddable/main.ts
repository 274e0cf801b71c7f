/**
 * The full firmware's composition root (manifest.json compiles its rollup
 * bundle, dist/moddable/main.js): every board feature linked, each started when
 * the board configuration names its UART. A board that uses only pins and
 * custom values builds main-pins.ts instead (`npm run bundle:pins`).
 */
import { boardSerial } from './board-serial.js';
import { boot } from './boot.js';
import { gnssFeature } from './feature-gnss.js';
import { modbusFeature } from './feature-modbus.js';

export default function main(): void {
  boot({ gnss: gnssFeature, modbus: modbusFeature, serial: boardSerial });
}
