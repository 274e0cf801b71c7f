#!/usr/bin/env node
// dds-bundle: npm run bundle / bundle:pins: the firmware's composition root and the Moddable adapters as one ES
// module (rollup, rollup.config.mjs), which manifest.json compiles with mcconfig. A wait over a second shows its
// progress on a terminal. Exit 2 for a bad option, 1 when the bundle fails.
import { mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { progress } from './progress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const usage = `usage: npm run bundle -- [--firmware setup|full|ota|pins] [--out FILE]
The firmware as one ES module for Moddable's mcconfig: the composition root and the adapters, bundled by rollup
(ECMA-419 embedded:* and Moddable SDK modules stay external). manifest.json compiles dist/moddable/main.js:
  npm run bundle && mcconfig -d -m -p esp32 manifest.json   (docs/moddable.md)
  --firmware NAME  setup (default): targets/moddable/main-setup.ts: full, and setup mode (provisioning without
                   a debugger, docs/moddable.md)
                   full: targets/moddable/main.ts: pins, custom values, the hub, GNSS, Modbus (\`npm run bundle:full\`)
                   ota: targets/moddable/main-ota.ts: full, and over-the-air updates (\`npm run bundle:ota\`, docs/ota.md)
                   pins: targets/moddable/main-pins.ts: no GNSS, no Modbus, no UART (what \`npm run bundle:pins\` does)
                   also from the FIRMWARE environment variable
  --out FILE       where the bundle goes; default dist/moddable/main.js (the path manifest.json reads)
  --help           print this help`;

function fail(code, message, hint) {
  process.stderr.write(`bundle: ${message}\n${hint ? '(npm run bundle -- --help lists the options)\n' : ''}`);
  process.exit(code);
}

let values;
try {
  ({ values } = parseArgs({
    options: { firmware: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: false,
  }));
} catch (e) {
  const option = /'(-[^' ]+)/.exec(e.message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') fail(2, `unknown option ${option}`, true);
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    fail(2, `unexpected argument "${/'([^']*)'/.exec(e.message)?.[1]}" (the output path is --out FILE)`, true);
  fail(2, `${option ?? 'an option'} needs a value`, true);
}
if (values.help) {
  process.stdout.write(usage + '\n');
  process.exit(0);
}
const firmware = values.firmware ?? process.env.FIRMWARE ?? 'setup';
// rollup.config.mjs reads FIRMWARE when it loads (for `rollup -c`): load it for the default, then pick the root.
process.env.FIRMWARE = 'full';
const { default: config, firmwareInputs } = await import('../rollup.config.mjs');
if (!Object.hasOwn(firmwareInputs, firmware)) {
  fail(2, `--firmware ${firmware}: expected one of ${Object.keys(firmwareInputs).join(', ')}`, true);
}
const out = values.out ?? join(root, config.output.file);
const done = progress(`bundling ${firmwareInputs[firmware]}`);
try {
  const { rollup } = await import('rollup');
  const bundle = await rollup({ ...config, input: join(root, firmwareInputs[firmware]), onwarn: (w) => warn(w) });
  mkdirSync(dirname(out), { recursive: true });
  await bundle.write({ ...config.output, file: out });
  await bundle.close();
} catch (e) {
  done();
  fail(1, `${firmwareInputs[firmware]}: ${String(e.message).split('\n')[0]}`);
}
done();
const shown = relative(process.cwd(), out);
process.stdout.write(`bundle: ${firmware} firmware -> ${shown.startsWith('..') ? out : shown}\n`);

function warn(w) {
  process.stderr.write(`bundle: warning: ${w.message}\n`);
}
