// The firmware bundle (`npm run bundle`): the core plus the Moddable adapters as
// one ES module, dist/moddable/main.js, which manifest.json compiles with
// mcconfig. ECMA-419 (`embedded:*`) and Moddable SDK modules stay external:
// the firmware links them. Type-checking is `npm run typecheck`
// (tsconfig.moddable.json); here each file is only transpiled.
//
// Two composition roots: targets/moddable/main.ts links every board feature
// (GNSS, Modbus); main-pins.ts links none (pins, custom values and the hub), for
// a board that uses no UART (`npm run bundle:pins`, i.e. FIRMWARE=pins);
// main-ota.ts is the full firmware with over-the-air updates (`npm run
// bundle:ota`, FIRMWARE=ota). Each writes dist/moddable/main.js, so
// manifest.json builds whichever was bundled.
import { typescriptTranspile } from './test/xs/ts-plugin.mjs';

/** Modules the Moddable SDK provides (not bundled). */
export const moddableModules = [
  'bootslots',
  'crypt',
  'curve',
  'ecdsa',
  'ecp',
  'http',
  'mc/config',
  'ota',
  'preference',
  'Resource',
  'securesocket',
  'sntp',
  'socket',
  'time',
  'timer',
  'websocket',
];

export const isExternal = (id) => id.startsWith('embedded:') || moddableModules.includes(id);

/** Composition root of each firmware configuration. */
export const firmwareInputs = {
  full: 'targets/moddable/main.ts',
  pins: 'targets/moddable/main-pins.ts',
  ota: 'targets/moddable/main-ota.ts',
};

const firmware = process.env.FIRMWARE ?? 'full';
if (!Object.hasOwn(firmwareInputs, firmware))
  throw new Error(`FIRMWARE=${firmware}: expected one of ${Object.keys(firmwareInputs).join(', ')}`);

export default {
  input: firmwareInputs[firmware],
  external: isExternal,
  plugins: [typescriptTranspile()],
  output: { file: 'dist/moddable/main.js', format: 'es', sourcemap: false },
};
