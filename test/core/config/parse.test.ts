import { parseChannelList } from '../../../src/config/parse.js';
import { assert } from '../../support/assert.js';

const buses = [
  { uid: 'b1', name: 'RS-485', key: 'rs485', type: 'modbus', baudRate: 19200, parity: 'even' },
  { uid: 'b2', name: 'CAN', key: 'can0', type: 'can', bitrate: 500000 },
];

describe('config/parse', () => {
  it('parses every channel type with defaults from decisions.md section 1', () => {
    const config = parseChannelList({
      buses,
      channels: [
        { uid: 'c1', key: 'temp', name: 'T', type: 'analogInput', pin: 34, scanInterval: 500 },
        { uid: 'c2', key: 'relay', type: 'digitalOutput', pin: 5, transmitEvents: [{ type: 'change' }] },
        { uid: 'c3', key: 'note', type: 'custom', customType: 'number', readOnly: true },
        { uid: 'c4', key: 'gps', type: 'location', timeout: 5000 },
        {
          uid: 'c5',
          key: 'flow',
          type: 'modbus',
          bus: 'rs485',
          deviceAddress: 1,
          registerType: 'holdingRegister',
          registerAddress: 0,
          dataType: 'float32',
        },
        {
          uid: 'c6',
          key: 'rpm',
          type: 'can',
          bus: 'can0',
          protocol: { type: 'j1939', pgn: 61444 },
          dataType: 'uint16',
          dataOffset: 24,
        },
      ],
    });
    assert.deepEqual(config.rejected, []);
    assert.equal(config.channels.length, 6);
    const [temp, relay, note, gps, flow, rpm] = config.channels;
    assert.deepEqual(temp, {
      uid: 'c1',
      key: 'temp',
      name: 'T',
      type: 'analogInput',
      pin: 34,
      scaleGain: 1,
      scaleOffset: 0,
      scanIntervalMs: 500,
      visible: true,
      transmitEvents: [],
    });
    assert.deepEqual(relay?.transmitEvents, [{ type: 'change' }]);
    assert.equal(note?.type === 'custom' && note.readOnly, true);
    assert.equal(gps?.type === 'location' ? gps.timeoutMs : 0, 5000);
    assert.equal(flow?.type === 'modbus' ? flow.dataOrder : '', 'bigEndian');
    assert.equal(flow?.type === 'modbus' ? flow.dataSizeBits : 0, 32);
    assert.equal(rpm?.type === 'can' ? rpm.dataOrder : '', 'littleEndian');
    assert.deepEqual(config.buses[0], {
      uid: 'b1',
      name: 'RS-485',
      key: 'rs485',
      type: 'modbus',
      baudRate: 19200,
      dataBits: 8,
      parity: 'even',
      stopBits: 'one',
    });
  });

  it('rejects a bad channel alone, with its reason, and keeps the others', () => {
    const config = parseChannelList({
      buses,
      channels: [
        { uid: 'ok', key: 'ok', type: 'digitalInput', pin: 1 },
        { uid: 'x1', key: 'nopin', type: 'digitalInput' },
        {
          uid: 'x2',
          key: 'badbus',
          type: 'modbus',
          bus: 'can0',
          deviceAddress: 1,
          registerType: 'coil',
          registerAddress: 0,
          dataType: 'bool',
        },
        {
          uid: 'x3',
          key: 'delta0',
          type: 'analogInput',
          pin: 2,
          transmitEvents: [{ type: 'delta', minimalChange: 0 }],
        },
        { uid: 'x4', key: 'ok', type: 'digitalInput', pin: 3 },
        'not an object',
      ],
    });
    assert.deepEqual(
      config.channels.map((c) => c.key),
      ['ok'],
    );
    assert.deepEqual(
      config.rejected.map((r) => r.key),
      ['nopin', 'badbus', 'delta0', 'ok', undefined],
    );
    assert.match(config.rejected[0]?.reason ?? '', /pin: expected a finite number, got missing/);
    assert.match(config.rejected[1]?.reason ?? '', /bus "can0" is can, not modbus/);
    assert.match(config.rejected[3]?.reason ?? '', /duplicate/);
  });

  it('leaves optional fields that were not given (or null) absent, and keeps the ones given', () => {
    const config = parseChannelList({
      buses,
      channels: [
        { uid: 'a', key: 'bare', type: 'digitalInput', pin: 1, group: null, order: null },
        { uid: 'b', key: 'full', type: 'digitalInput', pin: 2, group: 'g', order: 0, unit: 'V', aggregated: 'mean' },
        {
          uid: 'c',
          key: 'dm1',
          type: 'can',
          bus: 'can0',
          protocol: { type: 'j1939', pgn: 65226, priority: 6 },
          dataType: 'uint8',
        },
      ],
    });
    assert.deepEqual(config.rejected, []);
    const [bare, full, dm1] = config.channels;
    for (const field of ['group', 'aggregated', 'aggregatedLast', 'order', 'unit']) {
      assert.ok(bare !== undefined && !(field in bare), `${field} absent`);
    }
    assert.deepEqual([full?.group, full?.order, full?.unit, full?.aggregated], ['g', 0, 'V', 'mean']);
    assert.ok(dm1?.type === 'can' && !('canId' in dm1) && !('databaseParameterAddress' in dm1));
    assert.deepEqual(
      dm1?.type === 'can' ? JSON.stringify(dm1.protocol) : '',
      '{"type":"j1939","pgn":65226,"priority":6}',
    );
  });

  it('throws wire.invalid when the body is not a channel list', () => {
    assert.throws(() => parseChannelList([]), 'wire.invalid');
    assert.throws(() => parseChannelList({ buses: [] }), 'wire.invalid');
  });
});
