/**
 * End to end (docs/gnss.md): a simulated route driven through
 * the agent on the Node target (`--gnss simulated:route.json`) appears in the
 * local service as the seven `gps.<field>.reported` states and Location
 * measurements under metric `gps`, thinned by the channel's transmit events
 * (demo fixture: delta 10 m, interval 30 s; scan 1 s, timeout 10 s).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Route, distanceM } from '../../host-sim/gnss/route.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { adminToken, pump, readStates, useE2eHarness } from '../e2e/support/harness.js';

/** About 316 m north-east at 6 m/s: 53 s of driving, then parked. */
const ROUTE = {
  waypoints: [
    { lat: 59.3293, lon: 18.0686, altM: 20 },
    { lat: 59.3317, lon: 18.0716, altM: 26 },
  ],
  speedMps: 6,
  loop: false,
};

interface MeasurementRecord {
  metric: string;
  value: Record<string, number>;
  timestamp: number;
}

async function readMeasurements(url: string, startSeconds: number): Promise<MeasurementRecord[]> {
  const q = `devices=demo-001&metrics=gps&timeRangeStart=${startSeconds}`;
  const res = await fetch(`${url}/api/v1/measurements/read?${q}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as MeasurementRecord[]).sort((a, b) => a.timestamp - b.timestamp);
}

describe('e2e: a simulated GNSS route through the agent into the local service', function () {
  this.timeout(60000);
  const h = useE2eHarness();

  it('reports positions along the route as location states and Location measurements, by the transmit events', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
    const t0 = clock.wallMs();
    const service = await h.startService(clock);
    const routeFile = join(h.dir, 'route.json');
    writeFileSync(routeFile, JSON.stringify(ROUTE));
    const run = await h.startAgent(service.url, clock, {
      args: ['--gnss', `simulated:${routeFile}`],
      hub: true,
    });
    await pump(clock, run.agent, 120_000, 250);
    run.agent.flush();
    await pump(clock, run.agent, 250);

    const states = (await readStates(service.url, '*.reported', t0 / 1000 - 1)).filter((s) =>
      s.channel.startsWith('gps.'),
    );
    const field = (f: string) => states.filter((s) => s.channel === `gps.${f}.reported`);
    const lats = field('lat');
    const lons = field('lon');
    for (const f of ['lon', 'alt', 'pdop', 'hdop', 'vdop', 'sats']) {
      assert.deepEqual(
        field(f).map((s) => s.timestamp),
        lats.map((s) => s.timestamp),
        `gps.${f} reported with gps.lat`,
      );
    }
    // Before the receiver's first epoch the channel may report -ETIMEDOUT once; then only positions.
    const errors = lats.filter((s) => s.error !== undefined);
    assert.ok(
      errors.every((s) => s.error === -110 && s.timestamp * 1000 - t0 < 1000),
      JSON.stringify(errors),
    );
    const fixes = lats
      .filter((s) => s.value !== undefined)
      .map((s, i) => {
        const lon = lons.find((l) => l.timestamp === s.timestamp)?.value as number;
        return { ms: Math.round(s.timestamp * 1000 - t0), lat: s.value as number, lon, i };
      });
    assert.ok(fixes.length > 0);

    // Every reported position lies on the route where the vehicle was then (within one epoch).
    const truth = new Route(ROUTE);
    for (const p of fixes) {
      const off = Math.min(distanceM(p, truth.at(p.ms)), distanceM(p, truth.at(Math.max(0, p.ms - 1000))));
      assert.ok(off < 0.5, `t=${p.ms} ms: ${off.toFixed(2)} m off the route`);
    }
    // Driving (6 m/s, delta 10 m): a report every 2 s, 12 m apart; parked (after ~53 s): only the 30 s interval.
    const driving = fixes.filter((p) => p.ms <= 54_000);
    const parked = fixes.filter((p) => p.ms > 56_000);
    assert.ok(driving.length >= 25 && driving.length <= 28, `driving: ${driving.length} reports`);
    for (let k = 1; k < driving.length; k++) {
      const d = distanceM(driving[k - 1]!, driving[k]!);
      assert.ok(d >= 10 && d < 12.5, `consecutive reports ${d.toFixed(1)} m apart`);
    }
    assert.ok(parked.length >= 2 && parked.length <= 3, `parked: ${parked.length} reports (one every 30 s)`);
    for (let k = 1; k < parked.length; k++) assert.equal(parked[k]!.ms - parked[k - 1]!.ms, 30_000);

    // One Location measurement per reported position, with every field.
    const measurements = await readMeasurements(service.url, t0 / 1000 - 1);
    assert.deepEqual(
      measurements.map((m) => Math.round(m.timestamp * 1000 - t0)),
      fixes.map((p) => p.ms),
    );
    for (const m of measurements) {
      assert.deepEqual(Object.keys(m.value).sort(), ['alt', 'hdop', 'lat', 'lon', 'pdop', 'sats', 'vdop']);
      assert.ok(m.value['sats']! >= 4 && m.value['hdop']! > 0.4 && m.value['pdop']! >= m.value['hdop']!);
    }
    run.log.assertNoErrors();
    run.stop();
  });
});
