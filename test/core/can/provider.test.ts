import type { Sample } from '../../../src/agent/driver.js';
import { CanProvider } from '../../../src/can/provider.js';
import { parseChannelList } from '../../../src/config/parse.js';
import { Errno } from '../../../src/errno.js';
import { FakeCan } from '../../fakes/fake-can.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { assert } from '../../support/assert.js';

const config = parseChannelList({
  buses: [{ uid: 'b', key: 'can0', type: 'can', bitrate: 500000 }],
  channels: [
    {
      uid: '1',
      key: 'rpm',
      type: 'can',
      bus: 'can0',
      protocol: { type: 'j1939', pgn: 61444 },
      dataType: 'uint16',
      dataOffset: 24,
      dataSize: 16,
      scaleGain: 0.125,
      scanInterval: 100,
    },
    {
      uid: '2',
      key: 'coolant',
      type: 'can',
      bus: 'can0',
      protocol: { type: 'j1939', pgn: 65262, sourceAddress: 3 },
      dataType: 'uint8',
      scaleOffset: -40,
      scanInterval: 1000,
    },
    { uid: '3', key: 'raw', type: 'can', bus: 'can0', canId: 0x123, dataType: 'int16', dataOrder: 'bigEndian' },
    { uid: '4', key: 'cat1', type: 'can', bus: 'can0', protocol: { type: 'cattron' }, dataType: 'uint8' },
    { uid: '5', key: 'cat2', type: 'can', bus: 'can0', protocol: { type: 'cattron' }, dataType: 'uint8' },
    {
      uid: '6',
      key: 'dm1',
      type: 'can',
      bus: 'can0',
      protocol: { type: 'j1939', pgn: 65226 },
      dataType: 'uint8',
      dataOffset: 72,
      scanInterval: 1000,
    },
  ],
});

describe('can/provider: J1939 and raw CAN channels', () => {
  let clock: FakeClock;
  let can: FakeCan;
  let logger: FakeLogger;
  let drivers: Map<string, { sample(): Sample | Promise<Sample> | undefined }>;

  beforeEach(() => {
    clock = new FakeClock();
    can = new FakeCan();
    logger = new FakeLogger();
    const provider = new CanProvider({ can, clock, logger });
    provider.configure(config);
    drivers = new Map(config.channels.map((c) => [c.key, provider.create(c)]));
  });
  const sample = (key: string) => drivers.get(key)?.sample();

  it('opens the bus at its bitrate and decodes J1939 (little endian) and raw frames (raw values)', () => {
    assert.deepEqual(can.port('can0').options, { bus: 'can0', bitrate: 500000 });
    assert.equal(sample('rpm'), undefined, 'nothing to say before the first frame');
    can.port('can0').deliver(0x0cf00400, [0xf0, 0x7d, 0xa0, 0xc4, 0x1a, 0xff, 0xff, 0xff]);
    can.port('can0').deliver(0x18feee03, [0x7b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    can.port('can0').deliver(0x123, [0xff, 0x38]);
    assert.deepEqual(sample('rpm'), { ok: true, value: 6852 });
    assert.deepEqual(sample('coolant'), { ok: true, value: 123 });
    assert.deepEqual(sample('raw'), { ok: true, value: -200 });
  });

  it('matches the source address when the channel gives one', () => {
    can.port('can0').deliver(0x18feee00, [0x7b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    assert.equal(sample('coolant'), undefined);
  });

  it('reports not-available and error values, and short frames', () => {
    can.port('can0').deliver(0x0cf00400, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    assert.deepEqual(sample('rpm'), { ok: false, errno: Errno.EOPNOTSUPP });
    can.port('can0').deliver(0x0cf00400, [0xff, 0xff, 0xff, 0x00, 0xfe, 0xff, 0xff, 0xff]);
    assert.deepEqual(sample('rpm'), { ok: false, errno: Errno.EIO });
    can.port('can0').deliver(0x0cf00400, [0xff, 0xff, 0xff]);
    assert.deepEqual(sample('rpm'), { ok: false, errno: Errno.EIO });
  });

  it('reports -ETIMEDOUT after 3 scan intervals without a frame', () => {
    can.port('can0').deliver(0x0cf00400, [0xf0, 0x7d, 0xa0, 0xc4, 0x1a, 0xff, 0xff, 0xff]);
    clock.advance(300);
    assert.deepEqual(sample('rpm'), { ok: true, value: 6852 });
    clock.advance(1);
    assert.deepEqual(sample('rpm'), { ok: false, errno: Errno.ETIMEDOUT });
    assert.deepEqual(sample('coolant'), undefined);
    clock.advance(3000);
    assert.deepEqual(sample('coolant'), { ok: false, errno: Errno.ETIMEDOUT });
  });

  it('reads a field of a multi-packet (BAM) message', () => {
    const port = can.port('can0');
    port.deliver(0x1cecff00, [32, 12, 0, 2, 0xff, 0xca, 0xfe, 0x00]);
    port.deliver(0x1cebff00, [1, 1, 2, 3, 4, 5, 6, 7]);
    port.deliver(0x1cebff00, [2, 8, 9, 42, 11, 12, 0xff, 0xff]);
    assert.deepEqual(sample('dm1'), { ok: true, value: 42 });
  });

  it('reports cattron channels as -EOPNOTSUPP and says so once in the log', () => {
    assert.deepEqual(sample('cat1'), { ok: false, errno: Errno.EOPNOTSUPP });
    assert.deepEqual(sample('cat2'), { ok: false, errno: Errno.EOPNOTSUPP });
    assert.equal(logger.find('warn', 'cattron').length, 1);
    logger.assertNoErrors();
  });

  it('keeps an unchanged bus open on a new configuration and reopens a changed one', () => {
    const provider = new CanProvider({ can, clock, logger });
    provider.configure(config);
    const kept = provider.create(config.channels[0]!);
    const opened = can.ports.length;
    provider.configure(
      parseChannelList({ buses: [{ uid: 'b', key: 'can0', type: 'can', bitrate: 500000 }], channels: [] }),
    );
    assert.equal(can.ports.length, opened, 'no new port');
    assert.equal(can.port('can0').closed, false, 'the unchanged bus stays open');
    can.port('can0').deliver(0x0cf00400, [0xf0, 0x7d, 0xa0, 0xc4, 0x1a, 0xff, 0xff, 0xff]);
    assert.deepEqual(kept.sample(), { ok: true, value: 6852 }, 'a kept channel still hears its bus');
    const faster = parseChannelList({ buses: [{ uid: 'b', key: 'can0', type: 'can', bitrate: 250000 }], channels: [] });
    const before = can.port('can0');
    provider.configure(faster);
    assert.equal(before.closed, true, 'a changed bus is closed');
    provider.create(config.channels[1]!);
    assert.deepEqual(can.port('can0').options, { bus: 'can0', bitrate: 250000 }, 'and reopened with its new bitrate');
  });
});
