// The XS test runner (`npm run test:xs`): bundles every portable core test
// (test/core/**/*.test.ts, found at run time) with the mocha-compatible harness
// of test/xs/harness.ts into one script, runs it inside Moddable's XS engine
// through @agoric/xsnap, prints the results, and exits non-zero on any failure.
//
//   node test/xs/run.mjs [path-filter ...]   only test files whose path contains a filter
//   node test/xs/run.mjs --dir=test/xs/samples --suffix=.sample.ts   (the runner's own test)
//
// The XS side talks to this process only through xsnap's synchronous
// issueCommand: test events one by one, and fixture reads (readFixture) that
// this process answers from test/fixtures/.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import { typescriptTranspile } from './ts-plugin.mjs';
import { startXs } from './xsnap.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const fixtures = join(root, 'test', 'fixtures');

/** Every file under `dir` whose name ends with `suffix`, sorted. */
function findTests(dir, suffix) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(path, suffix));
    else if (entry.name.endsWith(suffix)) found.push(path);
  }
  return found.sort();
}

/**
 * SDK modules the board's update adapter links (targets/moddable/ota.ts), and the
 * fakes that stand for them in the board adapter's tests (test/xs/firmware/*.xs-test.ts).
 */
const sdkFakes = Object.fromEntries(
  ['ota', 'bootslots', 'crypt', 'curve', 'ecdsa', 'ecp'].map((id) => [id, `\0sdk-fake:${id}`]),
);
const sdkFakesFile = join(root, 'test', 'xs', 'firmware', 'fake-ota-sdk.ts');

/** One IIFE script of `files` (TypeScript), evaluated in order. */
export async function bundleScript(files) {
  const entry = '\0xs-tests-entry';
  const bundle = await rollup({
    input: entry,
    onwarn(warning, warn) {
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
    plugins: [
      {
        name: 'xs-tests-entry',
        resolveId: (id) => (id === entry ? entry : (sdkFakes[id] ?? null)),
        load(id) {
          if (id === entry) return files.map((f) => `import ${JSON.stringify(f)};`).join('\n');
          if (!id.startsWith('\0sdk-fake:')) return null;
          const name = id.slice('\0sdk-fake:'.length);
          // `bootslots` is a module of functions; the others export one class as default (crypt: Digest).
          if (name === 'bootslots')
            return `export { state, confirm, rollback, restart } from ${JSON.stringify(sdkFakesFile)};`;
          return `export { ${name === 'crypt' ? 'Digest' : `fake_${name} as default`} } from ${JSON.stringify(sdkFakesFile)};`;
        },
      },
      typescriptTranspile(),
    ],
  });
  const { output } = await bundle.generate({ format: 'iife', sourcemap: false });
  await bundle.close();
  return output[0].code;
}

function answer(value) {
  return new TextEncoder().encode(value === undefined ? '' : JSON.stringify(value));
}

function readFixture(path) {
  const full = resolve(fixtures, path);
  if (!full.startsWith(fixtures + sep)) return { error: 'outside test/fixtures' };
  try {
    return { text: readFileSync(full, 'utf8') };
  } catch (e) {
    return { error: e.message };
  }
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
  const filters = args.filter((a) => !a.startsWith('--'));
  const dir = resolve(root, option('dir', 'test/core'));
  const files = findTests(dir, option('suffix', '.test.ts')).filter(
    (f) => filters.length === 0 || filters.some((x) => relative(root, f).includes(x)),
  );
  if (files.length === 0) {
    console.error(`test:xs: no test files found under ${relative(root, dir)}`);
    process.exit(1);
  }
  const started = Date.now();
  const code = await bundleScript([join(root, 'test', 'xs', 'harness.ts'), ...files]);
  const bundledMs = Date.now() - started;

  const results = { passed: 0, failed: 0, pending: 0 };
  const failures = [];
  let current;
  let done = false;
  const handleCommand = async (bytes) => {
    const event = JSON.parse(new TextDecoder().decode(bytes));
    const pad = '  '.repeat(Math.max(0, (event.depth ?? 0) + 1));
    switch (event.t) {
      case 'fixture':
        return answer(readFixture(event.path));
      case 'suite':
        console.log(`${pad}${event.title}`);
        break;
      case 'start':
        current = event.full;
        break;
      case 'pass':
        results.passed++;
        console.log(`${pad}✔ ${event.title}`);
        break;
      case 'pending':
        results.pending++;
        console.log(`${pad}- ${event.title} (${event.error})`);
        break;
      case 'fail':
        results.failed++;
        failures.push(event);
        console.log(`${pad}✗ ${event.title}`);
        break;
      case 'crash':
        failures.push({ full: 'the harness', error: event.error });
        results.failed++;
        done = true;
        break;
      case 'done':
        done = true;
        break;
      default:
        console.error('test:xs: unknown event', event);
    }
    if (event.t === 'pass' || event.t === 'fail' || event.t === 'pending') current = undefined;
    return answer(undefined);
  };

  const worker = await startXs({ name: 'xs-core-tests', handleCommand });
  console.log(
    `XS (xsnap): ${files.length} test files, bundle ${(code.length / 1024).toFixed(0)} KiB in ${bundledMs} ms\n`,
  );
  try {
    await worker.evaluate(code);
    await worker.evaluate('globalThis.__runTests()');
  } catch (e) {
    failures.push({ full: 'loading the tests on XS', error: e.message });
    results.failed++;
  } finally {
    await worker.close().catch(() => undefined);
  }
  if (!done && failures.length === 0) {
    results.failed++;
    failures.push({
      full: current ?? 'the run',
      error:
        'never finished: its promise was still pending when XS had nothing left to run (no timer exists to wake it)',
    });
  }

  console.log('');
  failures.forEach((f, i) => console.log(`${i + 1}) ${f.full}\n   ${String(f.error).replace(/\n/g, '\n   ')}\n`));
  // The last line is the plain closing line CI reads: 'XS: N passed, N failed, N skipped'.
  console.log(`XS engine run: ${Date.now() - started} ms`);
  console.log(`XS: ${results.passed} passed, ${results.failed} failed, ${results.pending} skipped`);
  process.exit(results.failed > 0 || results.passed === 0 ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error('test:xs:', e);
    process.exit(1);
  });
}
