// The firmware bundle (`npm run bundle`): the core plus the Moddable adapters as
// one ES module, dist/moddable/main.js, which manifest.json compiles with
// mcconfig. ECMA-419 (`embedded:*`) and Moddable SDK modules stay external:
// the firmware links them. Type-checking is `npm run typecheck`
// (tsconfig.moddable.json); here each file is only transpiled.
import { typescriptTranspile } from './test/xs/ts-plugin.mjs';

/** Modules the Moddable SDK provides (not bundled). */
export const moddableModules = [
  'http',
  'mc/config',
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

export default {
  input: 'targets/moddable/main.ts',
  external: isExternal,
  plugins: [typescriptTranspile()],
  output: { file: 'dist/moddable/main.js', format: 'es', sourcemap: false },
};
