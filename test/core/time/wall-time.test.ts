/** Wall time (decisions 4): the host clock when plausible, else the HTTP Date header, else unknown. */
import { parseHttpDate } from '../../../src/time/http-date.js';
import { WallTime } from '../../../src/time/wall-time.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';

describe('wall time', () => {
  it('parses the three HTTP date forms and refuses others', () => {
    const t = Date.UTC(1994, 10, 6, 8, 49, 37);
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), t);
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), Date.UTC(2094, 10, 6, 8, 49, 37));
    assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), t);
    assert.equal(parseHttpDate('Sun, 06 Foo 1994 08:49:37 GMT'), undefined);
    assert.equal(parseHttpDate('yesterday'), undefined);
  });

  it('trusts a host clock after 2020', () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const wall = new WallTime(clock);
    assert.equal(wall.source, 'host');
    clock.advance(1500);
    assert.equal(wall.toWallMs(500), Date.UTC(2026, 0, 1) + 500);
  });

  it('is unknown on a board in 1970 until a Date header arrives, then stamps earlier moments', () => {
    const clock = new FakeClock(0);
    const wall = new WallTime(clock);
    let known = 0;
    wall.onKnown(() => known++);
    assert.equal(wall.isKnown(), false);
    assert.equal(wall.toWallMs(0), undefined);
    clock.advance(10000);
    wall.observeHttpDate('Thu, 01 Jan 2026 00:00:10 GMT');
    assert.equal(known, 1);
    assert.equal(wall.source, 'http');
    assert.equal(wall.toWallMs(10000), Date.UTC(2026, 0, 1, 0, 0, 10) + 500);
    assert.equal(wall.toWallMs(0), Date.UTC(2026, 0, 1, 0, 0, 0) + 500);
  });

  it('ignores Date headers before 2020, malformed ones, and any while the host clock is good', () => {
    const clock = new FakeClock(0);
    const wall = new WallTime(clock);
    wall.observeHttpDate('Tue, 01 Jan 2019 00:00:00 GMT');
    wall.observeHttpDate('garbage');
    assert.equal(wall.isKnown(), false);
    const good = new WallTime(new FakeClock(Date.UTC(2026, 0, 1)));
    good.observeHttpDate('Wed, 01 Jan 2025 00:00:00 GMT');
    assert.equal(good.nowMs(), Date.UTC(2026, 0, 1));
  });
});
