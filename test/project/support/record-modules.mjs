// Preloaded with `node --import` by test/project/loaded-modules.test.ts: records the URL of every module
// the process loads (one per line) in the file named by DDS_RECORD_MODULES. ESM has no module cache to
// inspect afterwards, so a resolve hook (module.register) does it as each import is resolved.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { appendFileSync } from 'node:fs';
const file = process.env.DDS_RECORD_MODULES;
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (file) appendFileSync(file, result.url + '\\n');
  return result;
}`),
);
