/**
 * The terminal view of `npm start`, rendered into a virtual terminal
 * (@xterm/headless, 80x24): the frame holds still however many times it is
 * drawn, fits, scrolls a long channel list a page at a time, and shows
 * desired and reported values side by side with errno names.
 */
import assert from 'node:assert/strict';
import xterm from '@xterm/headless';
import { createCounters } from '../../src/agent/counters.js';
import { Errno } from '../../src/errno.js';
import { LiveView, sampleText, type ViewStatus } from '../../host-sim/device/live-view.js';

/** A virtual 80x24 terminal behind the view's Screen. */
function virtualTerminal(cols = 80, rows = 24) {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 100 });
  const pending: Promise<void>[] = [];
  const screen = {
    isTTY: true,
    columns: cols,
    rows,
    write: (text: string) => pending.push(new Promise<void>((done) => term.write(text, done))),
  };
  /** The visible screen, one string per row, and how many rows scrolled off into the scrollback. */
  const read = async (): Promise<{ lines: string[]; scrolled: number }> => {
    await Promise.all(pending);
    const buffer = term.buffer.active;
    const lines = Array.from(
      { length: rows },
      (_, i) => buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '',
    );
    return { lines, scrolled: buffer.baseY };
  };
  return { screen, read, term };
}

const status = (overrides: Partial<ViewStatus> = {}): ViewStatus => ({
  online: true,
  hub: 'connected',
  counters: { ...createCounters(), sent: 12, requests: 3, queued: 2, queuedBytes: 180 },
  ...overrides,
});

describe('npm start: the live view in a virtual terminal', () => {
  it('holds still: a two-line header and the table stay put over 40 redraws, nothing scrolls', async () => {
    const vt = virtualTerminal();
    const view = new LiveView(vt.screen, ['Device Data Service http://127.0.0.1:8080', 'device demo-001  TLS: on']);
    for (let i = 0; i < 40; i++) {
      view.sampled('temperature', { ok: true, value: 20 + i / 10 });
      view.reported('temperature', { ok: true, value: 20 + i / 10 });
      view.render(status({ counters: { ...createCounters(), sent: i } }));
    }
    const { lines, scrolled } = await vt.read();
    assert.equal(scrolled, 0, 'nothing went into the scrollback');
    assert.equal(lines.filter((l) => l.startsWith('Device Data Service')).length, 1);
    assert.equal(lines[0], 'Device Data Service http://127.0.0.1:8080');
    assert.equal(lines[1], 'device demo-001  TLS: on');
    assert.match(lines[2]!, /^service online {2}hub connected {2}sent 39 records in 0 requests$/);
    assert.match(lines[4]!, /^channel\s+sampled\s+desired\s+reported\s+reports$/);
    assert.match(lines[5]!, /^temperature\s+23\.900\s+23\.900\s+40$/);
    assert.equal(lines[23], 'q quits');
    assert.ok(lines.every((l) => l.length <= 80));
  });

  it('shows desired and reported side by side, errors by errno name', async () => {
    const vt = virtualTerminal();
    const view = new LiveView(vt.screen, ['header']);
    view.desired('relay', true);
    view.reported('relay', { ok: true, value: true });
    view.desired('dimmer', 120);
    view.reported('dimmer', { ok: false, errno: Errno.ERANGE });
    view.sampled('gps', { ok: false, errno: Errno.ETIMEDOUT });
    view.render(status({ online: false, hub: 'waiting' }));
    const { lines } = await vt.read();
    const row = (key: string) => lines.find((l) => l.startsWith(key)) ?? '';
    assert.match(row('relay'), /^relay\s+true\s+true\s+1$/);
    assert.match(row('dimmer'), /^dimmer\s+120\s+-34 ERANGE\s+1$/);
    assert.match(row('gps'), /^gps\s+-110 ETIMEDOUT\s+0$/);
    assert.match(lines[1]!, /^service OFFLINE {2}hub waiting/);
    assert.equal(sampleText({ ok: true, value: { lat: 59.329312, lon: 18.068581 } }), '59.32931,18.06858');
  });

  it('pages a channel list longer than the frame, and the frame still fits 80x24', async () => {
    const vt = virtualTerminal();
    const view = new LiveView(vt.screen, ['header']);
    const keys = Array.from({ length: 30 }, (_, i) => `ch${String(i).padStart(2, '0')}`);
    for (const key of keys) view.sampled(key, { ok: true, value: 1 });
    view.render(status());
    const first = await vt.read();
    const shown = (lines: string[]) => lines.filter((l) => /^ch\d\d /.test(l)).map((l) => l.slice(0, 4));
    const page1 = shown(first.lines);
    assert.ok(page1.length >= 10, `a page holds at least 10 channels, got ${page1.length}`);
    assert.equal(page1[0], 'ch00');
    assert.ok(first.lines.some((l) => l.startsWith(`channels 1-${page1.length} of 30 (page 1/`)));
    for (let i = 0; i < 4; i++) view.render(status());
    const second = await vt.read();
    const page2 = shown(second.lines);
    assert.equal(page2[0], keys[page1.length]);
    assert.equal(second.scrolled, 0);
    assert.equal(second.lines[23], 'q quits');
  });

  it('leaves the alternate screen on close, and prints the header once, then one status line per frame, when not a terminal', () => {
    const written: string[] = [];
    const view = new LiveView({ write: (t: string) => written.push(t) }, ['header']);
    view.render(status());
    view.render(status());
    assert.deepEqual(written, [
      'header\n',
      'service online  hub connected  sent 12 records in 3 requests  outbox 2 records / 180 bytes  dropped 0  held 0  desired 0 applied\n',
      'service online  hub connected  sent 12 records in 3 requests  outbox 2 records / 180 bytes  dropped 0  held 0  desired 0 applied\n',
    ]);
    const tty: string[] = [];
    const drawn = new LiveView({ isTTY: true, write: (t: string) => tty.push(t) }, ['header']);
    drawn.render(status());
    drawn.close();
    assert.ok(tty[0]!.startsWith('\x1b[?1049h'));
    assert.equal(tty[1], '\x1b[?25h\x1b[?1049l');
  });

  it('a narrow terminal (40 columns): the header folds, so the URL and its port stay readable', async () => {
    const vt = virtualTerminal(40, 24);
    const header = [
      'Device Data Service http://127.0.0.1:45678  admin token admin-token-demo',
      'dashboard http://127.0.0.1:45678/  (sign in with admin-token-demo)',
    ];
    const view = new LiveView(vt.screen, header);
    view.render(status());
    const { lines, scrolled } = await vt.read();
    assert.equal(scrolled, 0);
    assert.deepEqual(lines.slice(0, 5), [
      'Device Data Service',
      'http://127.0.0.1:45678 admin token',
      'admin-token-demo',
      'dashboard http://127.0.0.1:45678/ (sign',
      'in with admin-token-demo)',
    ]);
    assert.ok(lines.every((l) => l.length <= 40));
    assert.equal(lines[23], 'q quits');
  });
});
