// Shared pieces of the firmware-on-XS cases (test/xs/firmware.mjs): the wall
// clock shared by the worker and the local service, the figures the run
// prints, raw TCP servers that misbehave on purpose, and the checks every case
// makes (no abort).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FirmwareRun } from './firmware-host.mjs';

export const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'));
/** The wall clock of the worker (it moves it) and of the local service (it reads it). */
export const clock = { wallMs: Date.now() };
/** Figures measured along the way, printed at the end. */
export const figures = {};

/** A TCP server on port 0 that answers every connection with `behave(socket)`; `close` ends them all. */
export async function rawServer(behave) {
  const open = new Set();
  const server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    behave(socket);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: server.address().port,
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise((done) => server.close(done));
    },
  };
}

/** A port nothing listens on. */
export async function closedPort() {
  const s = await rawServer((socket) => socket.destroy());
  await s.close();
  return s.port;
}

export function assertHealthy(run) {
  assert.equal(run.aborted, undefined, `the firmware aborted: ${run.aborted}`);
  const aborts = run.logs.filter((l) => /unhandled|abort/i.test(l));
  assert.deepEqual(aborts, [], 'no abort in the log');
}

export async function adapterRun(flavor) {
  const run = new FirmwareRun({ flavor, clock });
  await run.start(true);
  return run;
}

export async function result(run, tag, limitMs = 15_000) {
  assert.ok(await run.until(() => run.results.some((r) => r.tag === tag), limitMs), `no result for ${tag}`);
  return run.results.filter((r) => r.tag === tag);
}
