// Runs every benchmark in turn (`npm run bench`), echoes each one's output, and prints as its last line one
// JSON object holding each benchmark's own last-line figures. Figures, not pass/fail: a benchmark that fails
// to run is reported with its exit code and the run goes on.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const benches = [
  ['core', 'build/bench/core.js'],
  // The fair share's reader (the main thread) would otherwise meet V8's memory reducer, a 20-30 ms collection
  // of a thread that allocates little, in its flooded phase: the bench's own pause, not the service's.
  ['service', 'build/bench/service.js', ['--no-memory-reducer']],
  ['signalr', 'build/bench/signalr.js'],
  ['gnss', 'build/bench/gnss.js'],
  ['buses', 'build/bench/buses.js'],
  ['field', 'build/bench/field.js'],
  ['fleet', 'build/bench/fleet.js'],
  ['xs', 'bench/xs.mjs'],
  ['xs-gnss', 'bench/xs-gnss.mjs'],
  ['xs-signalr', 'bench/xs-signalr.mjs'],
];

const figures = {};
for (const [name, script, flags = []] of benches) {
  if (!existsSync(script)) {
    figures[name] = { error: `${script} not found` };
    continue;
  }
  console.log(`\n=== bench:${name} (${script})`);
  const run = spawnSync(process.execPath, ['--expose-gc', ...flags, script], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(run.stdout ?? '');
  const last = (run.stdout ?? '').trim().split('\n').pop() ?? '';
  try {
    figures[name] = JSON.parse(last);
  } catch {
    figures[name] = { error: `exit ${run.status}; last line was not JSON` };
  }
}
console.log(JSON.stringify(figures));
