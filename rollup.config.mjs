// The firmware bundle (`npm run bundle`): the core plus the Moddable adapters as
// one ES module, dist/moddable/main.js, which manifest.json compiles with
// mcconfig. ECMA-419 (`embedded:*`) and Moddable SDK modules stay external:
// the firmware links them. Type-checking is `npm run typecheck`
// (tsconfig.moddable.json); here each file is only transpiled.
//
// Four composition roots: targets/moddable/main-setup.ts (the default,
// `npm run bundle`) links every board feature (GNSS, Modbus) and setup mode
// (provisioning without a debugger, decisions 11); main.ts the same without
// setup mode (`npm run bundle:full`, FIRMWARE=full); main-ota.ts the full
// firmware with over-the-air updates (`npm run bundle:ota`, FIRMWARE=ota,
// decisions 12); main-pins.ts no feature (pins, custom values and the hub), for
// a board that uses no UART (`npm run bundle:pins`, FIRMWARE=pins). All write
// dist/moddable/main.js, so manifest.json builds whichever was bundled last.
import { typescriptTranspile } from './test/xs/ts-plugin.mjs';

/** Modules the Moddable SDK provides (not bundled). */
export const moddableModules = [
  'bootslots',
  'crypt',
  'curve',
  'dds/wifi',
  'ecdsa',
  'ecp',
  'http',
  'mc/config',
  'ota',
  'preference',
  'Resource',
  'rng',
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
  setup: 'targets/moddable/main-setup.ts',
  full: 'targets/moddable/main.ts',
  pins: 'targets/moddable/main-pins.ts',
  ota: 'targets/moddable/main-ota.ts',
};

// The default is the provisionable firmware (setup mode linked), for a board and for mcsim alike.
const firmware = process.env.FIRMWARE ?? 'setup';
if (!Object.hasOwn(firmwareInputs, firmware))
  throw new Error(`FIRMWARE=${firmware}: expected one of ${Object.keys(firmwareInputs).join(', ')}`);

export default {
  input: firmwareInputs[firmware],
  external: isExternal,
  plugins: [typescriptTranspile()],
  output: { file: 'dist/moddable/main.js', format: 'es', sourcemap: false },
};
