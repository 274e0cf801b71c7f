/**
 * The GNSS steady path allocates nothing per sentence on XS: bench/xs-gnss.mjs
 * runs the parser and the fix tracker on xsnap over two logs (GNS and a
 * multi-constellation GSA stream; GLL from a talker the table does not name)
 * and counts the heap slots each pass allocates. The peer (nmea-simple) on
 * the same engine must show allocation, so the count is known to see it.
 * In a child process: xsnap's Node API locks down this process's intrinsics.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert } from '../support/assert.js';

const root = join(fileURLToPath(import.meta.url), '..', '..', '..', '..');

interface Figures {
  sentences: number;
  parse: { slotsPerSentence: number; computronsPerSentence: number };
  fix: { slotsPerSentence: number };
  nmeaSimple: { slotsPerSentence: number };
}

describe('gnss on XS: no allocation per sentence', function () {
  this.timeout(120_000);

  it('parses and tracks beidou-bd and sounder on xsnap with 0 heap slots per sentence', () => {
    const run = spawnSync(process.execPath, [join(root, 'bench', 'xs-gnss.mjs'), 'beidou-bd', 'sounder'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const figures = JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as Figures;
    assert.equal(figures.sentences, 78 + 244);
    assert.equal(figures.parse.slotsPerSentence, 0);
    assert.equal(figures.fix.slotsPerSentence, 0);
    assert.ok(figures.nmeaSimple.slotsPerSentence > 10, 'the measurement sees the peer allocate');
    assert.ok(figures.parse.computronsPerSentence > 0);
  });
});
