// Preloaded with `node --import` (through NODE_OPTIONS) by test/project/support/commands.ts: at exit, writes
// the process's CPU time (user + system, µs) as JSON to file descriptor 3 when the parent opened one. The
// commands' answer time is judged on it as well as on the wall clock, which a loaded machine stretches.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  try {
    const { user, system } = process.cpuUsage();
    writeSync(3, JSON.stringify({ cpuMs: (user + system) / 1000 }) + '\n');
  } catch {
    // no descriptor 3: not measured
  }
});
