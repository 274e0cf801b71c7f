import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChannelDriver } from '../../src/agent/driver.js';
import { CanProvider } from '../../src/can/provider.js';
import { parseChannelList } from '../../src/config/parse.js';
import { SimulatedCanBus } from '../../host-sim/can/bus.js';
import { formatCandump, parseCandump } from '../../host-sim/can/candump.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { demoConfig, repoRoot } from './support.js';

const trace = readFileSync(join(repoRoot, 'host-sim/can/demo.candump'), 'utf8');

describe('simulated CAN bus: candump logs', () => {
  it('parses log-file and screen formats, skipping what it cannot read', () => {
    const log = parseCandump(
      [
        '(1436509052.249713) can0 0CF00400#F07DA0C41AFFFFFF',
        '  can1  123   [2]  FF 38',
        '(1.0) can0 123#R',
        'garbage',
        '# comment',
      ].join('\n'),
    );
    assert.equal(log.skipped, 2);
    assert.deepEqual(
      log.frames.map((f) => [f.interface, f.frame.id, f.frame.extended, Array.from(f.frame.data)]),
      [
        ['can0', 0x0cf00400, true, [0xf0, 0x7d, 0xa0, 0xc4, 0x1a, 0xff, 0xff, 0xff]],
        ['can1', 0x123, false, [0xff, 0x38]],
      ],
    );
    const first = log.frames[0];
    assert.ok(first);
    assert.equal(
      formatCandump(first.timeS, first.interface, first.frame),
      '(1436509052.249713) can0 0CF00400#F07DA0C41AFFFFFF',
    );
  });

  it('replays the demo trace at its timing into the demo J1939 channels, BAM included', () => {
    const clock = new FakeClock();
    const bus = new SimulatedCanBus(clock);
    const provider = new CanProvider({ can: bus, clock, logger: new FakeLogger() });
    const demo = demoConfig();
    const dm1 = parseChannelList({
      buses: demo.buses,
      channels: [
        {
          uid: 'x',
          key: 'dm1spn',
          type: 'can',
          bus: 'can0',
          protocol: { type: 'j1939', pgn: 65226 },
          dataType: 'uint8',
          dataOffset: 16,
        },
      ],
    }).channels;
    const config = { ...demo, channels: [...demo.channels, ...dm1] };
    provider.configure(config);
    const drivers = new Map<string, ChannelDriver>(
      config.channels.filter((c) => c.type === 'can').map((c) => [c.key, provider.create(c)]),
    );
    const log = parseCandump(trace);
    assert.equal(log.skipped, 0);
    bus.replay(log.frames);
    clock.advance(50);
    assert.deepEqual(drivers.get('engineSpeed')?.sample(), { ok: true, value: 800 / 0.125 });
    assert.deepEqual(drivers.get('coolantTemp')?.sample(), { ok: true, value: 60 });
    assert.equal(drivers.get('dm1spn')?.sample(), undefined, 'the BAM has not arrived yet');
    clock.advance(2000);
    assert.deepEqual(drivers.get('dm1spn')?.sample(), { ok: true, value: 0x6e });
    assert.equal(provider.listener('can0')?.bam.counters.completed, 1);
  });
});
