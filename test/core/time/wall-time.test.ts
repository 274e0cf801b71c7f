/** Wall time (decisions 4): the host clock when plausible, else the HTTP Date header, else unknown. */
import { parseHttpDate, WallTime } from '../../../src/time/wall-time.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';

describe('wall time', () => {
  it('parses the three HTTP-date forms of RFC 9110 and refuses bad dates', () => {
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), Date.UTC(1994, 10, 6, 8, 49, 37));
    assert.equal(parseHttpDate(' Thu, 01 Jan 2026 00:00:00 GMT '), Date.UTC(2026, 0, 1));
    assert.equal(parseHttpDate('Wed, 31 Dec 2025 23:59:60 GMT'), Date.UTC(2025, 11, 31, 23, 59, 60));
    // RFC 850: a two-digit year is 1971-2070 (50 years past 2020, the earliest time a device accepts).
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), Date.UTC(1994, 10, 6, 8, 49, 37));
    assert.equal(parseHttpDate('Wednesday, 18-Nov-26 21:05:09 GMT'), Date.UTC(2026, 10, 18, 21, 5, 9));
    assert.equal(parseHttpDate('Friday, 31-Dec-70 00:00:00 GMT'), Date.UTC(2070, 11, 31));
    assert.equal(parseHttpDate('Thursday, 01-Jan-71 00:00:00 GMT'), Date.UTC(1971, 0, 1));
    // asctime: the day is two digits or a space and one digit; no zone (GMT by definition).
    assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), Date.UTC(1994, 10, 6, 8, 49, 37));
    assert.equal(parseHttpDate('Wed Nov 18 21:05:09 2026'), Date.UTC(2026, 10, 18, 21, 5, 9));
    for (const bad of [
      'Sun, 06 Foo 1994 08:49:37 GMT',
      'Sun, 06 NOV 1994 08:49:37 GMT',
      'Sun, 00 Nov 1994 08:49:37 GMT',
      'Sun, 32 Nov 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 24:00:00 GMT',
      'Sun, 06 Nov 1994 08:60:00 GMT',
      'Sun, 06 Nov 1994 08:49:61 GMT',
      'Sun, 06 Nov 94 08:49:37 GMT',
      'Sun, 06-Nov-1994 08:49:37 GMT',
      'Sunday, 06 Nov 94 08:49:37 GMT',
      'Sunday, 06-Nov-1994 08:49:37 GMT',
      'Sunday, 32-Nov-94 08:49:37 GMT',
      'Sunday, 06-Nov-94 25:49:37 GMT',
      'Sunday, 06-Nov-94 08:49:37',
      'Sun Nov 6 08:49:37 1994',
      'Sun Nov  6 08:49:37 94',
      'Sun Nov  0 08:49:37 1994',
      'Sun Foo  6 08:49:37 1994',
      'Sun Nov  6 08:49:37 1994 GMT',
      'Sun Nov  6 08:61:37 1994',
      'yesterday',
    ])
      assert.equal(parseHttpDate(bad), undefined, bad);
  });

  it('trusts a host clock after 2020', () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const wall = new WallTime(clock);
    assert.notEqual(wall.nowMs(), undefined);
    clock.advance(1500);
    assert.equal(wall.toWallMs(500), Date.UTC(2026, 0, 1) + 500);
  });

  it('is unknown on a board in 1970 until a Date header arrives, then stamps earlier moments', () => {
    const clock = new FakeClock(0);
    const wall = new WallTime(clock);
    let known = 0;
    wall.onKnown(() => known++);
    assert.equal(wall.nowMs(), undefined);
    assert.equal(wall.toWallMs(0), undefined);
    clock.advance(10000);
    wall.observeHttpDate('Thu, 01 Jan 2026 00:00:10 GMT');
    assert.equal(known, 1);
    assert.notEqual(wall.nowMs(), undefined);
    assert.equal(wall.toWallMs(10000), Date.UTC(2026, 0, 1, 0, 0, 10) + 500);
    assert.equal(wall.toWallMs(0), Date.UTC(2026, 0, 1, 0, 0, 0) + 500);
    wall.observeHttpDate('Thu, 01 Jan 2026 00:00:20 GMT');
    assert.equal(known, 1, 'called once');
    wall.onKnown(() => (known += 10));
    assert.equal(known, 11, 'a listener given once the time is known: called at once');
  });

  it('ignores Date headers before 2020, malformed ones, and any while the host clock is good', () => {
    const clock = new FakeClock(0);
    const wall = new WallTime(clock);
    wall.observeHttpDate('Tue, 01 Jan 2019 00:00:00 GMT');
    wall.observeHttpDate('garbage');
    assert.equal(wall.nowMs(), undefined);
    const good = new WallTime(new FakeClock(Date.UTC(2026, 0, 1)));
    good.observeHttpDate('Wed, 01 Jan 2025 00:00:00 GMT');
    assert.equal(good.nowMs(), Date.UTC(2026, 0, 1));
  });
});
