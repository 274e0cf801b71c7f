// The firmware bundle for the firmware-on-XS run: targets/moddable/main.ts and
// its adapters with the fakes of test/xs/firmware/ standing for the Moddable
// host modules the firmware links, as one IIFE script (rollup, transpile only:
// `npm run typecheck` checks them with tsconfig.firmware-xs.json).
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import { typescriptTranspile } from './ts-plugin.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const fakes = join(root, 'test', 'xs', 'firmware');

/** Module ids the firmware links, and what stands for them on XS. */
const modules = {
  http: { file: 'fake-http.ts' },
  websocket: { file: 'fake-websocket.ts' },
  securesocket: { file: 'fake-securesocket.ts' },
  socket: { file: 'fake-socket.ts' },
  timer: { file: 'fake-host.ts', name: 'Timer' },
  time: { file: 'fake-host.ts', name: 'Time' },
  preference: { file: 'fake-host.ts', name: 'Preference' },
  Resource: { file: 'fake-host.ts', name: 'Resource' },
  sntp: { file: 'fake-host.ts', name: 'SNTP' },
  'mc/config': { file: 'fake-host.ts', name: 'config' },
  rng: { file: 'fake-host.ts', name: 'RNG' },
  // The simulator's radio-less Wi-Fi, as manifest.json maps it for lin.
  'dds/wifi': { path: join(root, 'targets', 'moddable', 'sim', 'wifi.js') },
  'embedded:io/serial': { file: 'fake-host.ts', name: 'Serial' },
  // The desktop simulator's pins, as manifest.json maps them for lin.
  'embedded:io/digital': { path: join(root, 'targets', 'moddable', 'sim', 'digital.js') },
  'embedded:io/analog': { path: join(root, 'targets', 'moddable', 'sim', 'analog.js') },
  'embedded:io/pwm': { path: join(root, 'targets', 'moddable', 'sim', 'pwm.js') },
};

let bundled;
/** The firmware bundle with the fakes, as one IIFE script (built once per process). */
export async function firmwareScript() {
  if (bundled !== undefined) return bundled;
  const bundle = await rollup({
    input: join(fakes, 'entry.ts'),
    onwarn(warning, warn) {
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
    plugins: [
      {
        name: 'moddable-fakes',
        resolveId(id) {
          const m = modules[id];
          if (m === undefined) return null;
          if (m.path !== undefined) return m.path;
          return m.name === undefined ? join(fakes, m.file) : `\0fake:${id}`;
        },
        load(id) {
          if (!id.startsWith('\0fake:')) return null;
          const m = modules[id.slice(6)];
          return `export { ${m.name} as default } from ${JSON.stringify(join(fakes, m.file))};`;
        },
      },
      typescriptTranspile(),
    ],
  });
  const { output } = await bundle.generate({ format: 'iife', sourcemap: false });
  await bundle.close();
  bundled = output[0].code;
  return bundled;
}

/** The manifest's config for lin, as mcconfig would give it to `mc/config`. */
export function linConfig(manifest, overrides) {
  return { ...manifest.config, ...manifest.platforms.lin.config, file: undefined, ...overrides };
}
