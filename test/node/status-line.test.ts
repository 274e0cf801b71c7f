/**
 * The status line of `npm run agent` / `npm run device` in a virtual terminal
 * (@xterm/headless): it stays on the last row, redrawn in place, log lines
 * scroll above it, it is cut to the width (a narrow terminal gets no stray
 * wrapped rows), and it is gone at exit. Not a terminal: nothing is drawn and
 * log lines pass through unchanged. And the progress of the commands' long
 * waits (bin/progress.mjs): drawn only on a terminal, only after a second.
 */
import assert from 'node:assert/strict';
import xterm from '@xterm/headless';
import sinon from 'sinon';
import { createCounters } from '../../src/agent/counters.js';
import { StatusLine, statusText } from '../../targets/node/status-line.js';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Progress = (what: string, stream: { isTTY?: boolean; write(text: string): unknown }) => (done?: string) => void;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
let progress: Progress;

function virtualTerminal(cols: number, rows: number) {
  // convertEol: a terminal's line discipline (onlcr) turns each \n written to it into \r\n.
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 100, convertEol: true });
  const pending: Promise<void>[] = [];
  const screen = {
    isTTY: true,
    columns: cols,
    write: (text: string) => pending.push(new Promise<void>((done) => term.write(text, done))),
  };
  const rowsNow = async (): Promise<string[]> => {
    await Promise.all(pending);
    const b = term.buffer.active;
    return Array.from({ length: b.length }, (_, i) => b.getLine(i)?.translateToString(true) ?? '').filter(
      (l) => l !== '',
    );
  };
  return { screen, rowsNow };
}

const status = (sent: number) => ({
  online: true,
  hub: 'connected',
  channels: 15,
  counters: { ...createCounters(), sampled: 120, sent, queued: 3 },
});

describe('npm run agent / device: the status line', () => {
  it('stays on the last row while log lines scroll above it, redrawn in place', async () => {
    const vt = virtualTerminal(120, 10);
    const line = new StatusLine(vt.screen);
    for (let i = 0; i < 5; i++) {
      line.show(statusText(status(i)));
      line.print(`2026-01-01T00:00:0${i}.000Z info  log line ${i}`);
    }
    line.show(statusText(status(99)));
    const rows = await vt.rowsNow();
    assert.equal(rows.length, 6, rows.join('\n'));
    assert.deepEqual(
      rows.slice(0, 5).map((r) => r.replace(/^\S+ /, '')),
      [0, 1, 2, 3, 4].map((i) => `info  log line ${i}`),
    );
    assert.equal(
      rows[5],
      'service online  hub connected  channels 15  sampled 120  sent 99  queued 3  dropped 0  (Ctrl-C stops)',
    );
    line.clear();
    assert.equal((await vt.rowsNow()).length, 5, 'the status line is gone at exit');
  });

  it('a narrow terminal: the line is cut to the width, never wrapped onto another row', async () => {
    const vt = virtualTerminal(40, 10);
    const line = new StatusLine(vt.screen);
    for (let i = 0; i < 3; i++) line.show(statusText(status(i)));
    const rows = await vt.rowsNow();
    assert.deepEqual(rows, ['service online  hub connected  channels']);
  });

  it('not a terminal: nothing drawn, log lines pass through', () => {
    const written: string[] = [];
    const line = new StatusLine({ write: (t: string) => written.push(t) });
    line.show('status');
    line.print('a log line');
    line.clear();
    assert.equal(line.active, false);
    assert.deepEqual(written, ['a log line\n']);
  });
});

describe('the commands: progress of a wait over a second', () => {
  let clock: sinon.SinonFakeTimers;
  before(async () => {
    // A plain ES module of bin/ (the commands run it before any build), loaded by its path.
    ({ progress } = (await import(pathToFileURL(join(root, 'bin', 'progress.mjs')).href)) as { progress: Progress });
  });
  beforeEach(() => (clock = sinon.useFakeTimers()));
  afterEach(() => clock.restore());

  it('on a terminal: nothing in the first second, then the seconds spent, cleared at the end', () => {
    const written: string[] = [];
    const done = progress('building', { isTTY: true, write: (t: string) => written.push(t) });
    clock.tick(999);
    assert.deepEqual(written, []);
    clock.tick(1);
    clock.tick(1000);
    assert.deepEqual(written, ['\r\x1b[2Kbuilding ... 1 s', '\r\x1b[2Kbuilding ... 2 s']);
    done('built');
    assert.equal(written.at(-1), '\r\x1b[2Kbuilt\n');
    clock.tick(5000);
    assert.equal(written.length, 3, 'stopped');
  });

  it('a quick step on a terminal stays silent; a pipe never gets progress', () => {
    const tty: string[] = [];
    progress('bundling', { isTTY: true, write: (t: string) => tty.push(t) })();
    assert.deepEqual(tty, []);
    const pipe: string[] = [];
    const done = progress('bundling', { write: (t: string) => pipe.push(t) });
    clock.tick(10000);
    done();
    assert.deepEqual(pipe, []);
  });
});
