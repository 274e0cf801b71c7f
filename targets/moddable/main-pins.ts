/**
 * The smallest firmware's composition root (`npm run bundle:pins` writes its
 * bundle to dist/moddable/main.js, which manifest.json compiles): pin channels,
 * custom values and the hub, no GNSS and no Modbus linked. A board
 * configuration that names `gnssPort` or `modbusPort` gets a warning at boot and
 * those channels report -EOPNOTSUPP.
 */
import { boot } from './boot.js';

export default function main(): void {
  boot();
}
