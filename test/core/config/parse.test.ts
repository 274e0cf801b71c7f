import { parseChannelList } from '../../../src/config/parse.js';
import { assert } from '../../support/assert.js';

const buses = [
  { uid: 'b1', name: 'RS-485', key: 'rs485', type: 'modbus', baudRate: 19200, parity: 'even' },
  { uid: 'b2', name: 'CAN', key: 'can0', type: 'can', bitrate: 500000 },
];

/** A Modbus channel on bus `rs485` (the tests' buses), its optional fields left out. */
const holdingRegister = {
  uid: 'm',
  key: 'm',
  type: 'modbus',
  bus: 'rs485',
  deviceAddress: 1,
  registerType: 'holdingRegister',
  registerAddress: 0,
  dataType: 'int16',
};

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
      key: 'temp',
      type: 'analogInput',
      pin: 34,
      scaleGain: 1,
      scaleOffset: 0,
      scanIntervalMs: 500,
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
    assert.deepEqual(
      config.rejected.map((r) => r.reason),
      [
        'channels[1].pin: expected integer >= 0, got missing',
        'channels[2].bus: expected key of a modbus bus, got "can0"',
        'channels[3].transmitEvents[0].minimalChange: expected number > 0, got 0',
        'channels[4].key: expected a key not used before, got "ok"',
        'channels[5]: expected object, got "not an object"',
      ],
    );
  });

  it('names the path, the expectation and a short rendering of the value in every reason', () => {
    const reasons = (channels: unknown[], withBuses: unknown[] = buses): string[] =>
      parseChannelList({ buses: withBuses, channels }).rejected.map((r) => r.reason);
    const pin = { uid: 'u', key: 'k', type: 'analogInput', pin: 1 };
    const modbus = holdingRegister;
    assert.deepEqual(
      reasons([
        { ...pin, scanInterval: 'abc' },
        { ...pin, scanInterval: 5 },
        { ...pin, key: '' },
        { ...pin, scaleGain: 0 },
        { ...pin, type: 'thermometer' },
        { ...pin, pin: 1.5 },
        { ...pin, aggregated: 'median' },
        { ...pin, transmitEvents: [{ type: 'threshold', threshold: 1, hysteresis: -1 }] },
        { ...pin, transmitEvents: {} },
        { ...pin, name: 'x'.repeat(100), visible: 'x'.repeat(100) },
        { ...modbus, deviceAddress: 248 },
        { ...modbus, dataSize: 17 },
        { ...modbus, dataType: 'float32', dataSize: 16 },
        { ...modbus, bus: 'nowhere' },
        { uid: 'c', key: 'c', type: 'can', bus: 'can0', dataType: 'uint8' },
        { uid: 'c', key: 'c', type: 'can', bus: 'can0', dataType: 'uint8', protocol: { type: 'j1939', pgn: -1 } },
      ]),
      [
        'channels[0].scanInterval: expected number >= 10, got "abc"',
        'channels[1].scanInterval: expected number >= 10, got 5',
        'channels[2].key: expected non-empty string, got ""',
        'channels[3].scaleGain: expected number other than 0, got 0',
        'channels[4].type: expected one of analogInput|analogOutput|can|custom|digitalInput|digitalOutput|location|modbus, got "thermometer"',
        'channels[5].pin: expected integer >= 0, got 1.5',
        'channels[6].aggregated: expected one of derivative.1s|derivative.1m|derivative.1h|last|max|mean|min, got "median"',
        'channels[7].transmitEvents[0].hysteresis: expected number >= 0, got -1',
        'channels[8].transmitEvents: expected array, got {}',
        `channels[9].visible: expected boolean, got "${'x'.repeat(39)}`,
        'channels[10].deviceAddress: expected integer 1..247, got 248',
        'channels[11].dataSize: expected 1..16 bits for int16, got 17',
        'channels[12].dataSize: expected 32 bits for float32, got 16',
        'channels[13].bus: expected key of a modbus bus, got "nowhere"',
        'channels[14].canId: expected integer, or a protocol, got missing',
        'channels[15].protocol.pgn: expected integer 0..262143, got -1',
      ],
    );
  });

  it('rejects a bad bus alone and the channels that name it', () => {
    const config = parseChannelList({
      buses: [buses[0], { uid: 'b3', key: 'slow', type: 'modbus', dataBits: 9 }, { uid: 'b4', type: 'usb' }],
      channels: [
        {
          uid: 'c',
          key: 'c',
          type: 'modbus',
          bus: 'slow',
          deviceAddress: 1,
          registerType: 'coil',
          registerAddress: 0,
          dataType: 'bool',
        },
      ],
    });
    assert.deepEqual(
      config.buses.map((b) => b.key),
      ['rs485'],
    );
    assert.deepEqual(
      config.rejected.map((r) => [r.key, r.reason]),
      [
        ['slow', 'buses[1].dataBits: expected one of 5|6|7|8, got 9'],
        [undefined, 'buses[2].type: expected one of can|modbus, got "usb"'],
        ['c', 'channels[0].bus: expected key of a modbus bus, got "slow"'],
      ],
    );
  });

  it('reads the type-dependent defaults: readOnly, dataOrder, dataSize, and CAN fields inside protocol', () => {
    const config = parseChannelList({
      buses,
      channels: [
        {
          uid: '1',
          key: 'in',
          type: 'modbus',
          bus: 'rs485',
          deviceAddress: 1,
          registerType: 'inputRegister',
          registerAddress: 0,
          dataType: 'uint16',
        },
        {
          uid: '2',
          key: 'hold',
          type: 'modbus',
          bus: 'rs485',
          deviceAddress: 1,
          registerType: 'holdingRegister',
          registerAddress: 0,
          dataType: 'uint16',
          dataOrder: 'littleEndian',
          dataSize: 12,
        },
        {
          uid: '3',
          key: 'cat',
          type: 'can',
          bus: 'can0',
          dataType: 'int8',
          protocol: { type: 'cattron', databaseParameterAddress: 7, readOnly: false },
        },
        {
          uid: '4',
          key: 'top',
          type: 'can',
          bus: 'can0',
          canId: 0x18fef100,
          dataType: 'int8',
          databaseParameterAddress: 3,
          readOnly: true,
          protocol: { type: 'cattron', databaseParameterAddress: 7, readOnly: false },
        },
      ],
    });
    assert.deepEqual(config.rejected, []);
    const [input, hold, cat, top] = config.channels;
    assert.deepEqual(
      input?.type === 'modbus' && [input.readOnly, input.dataOrder, input.dataSizeBits, input.dataOffsetBits],
      [true, 'bigEndian', 16, 0],
    );
    assert.deepEqual(hold?.type === 'modbus' && [hold.readOnly, hold.dataOrder, hold.dataSizeBits], [
      false,
      'littleEndian',
      12,
    ]);
    assert.deepEqual(cat?.type === 'can' && [cat.readOnly, cat.databaseParameterAddress, cat.dataOrder, cat.protocol], [
      false,
      7,
      'littleEndian',
      { type: 'cattron' },
    ]);
    assert.deepEqual(top?.type === 'can' && [top.readOnly, top.databaseParameterAddress, top.canId], [
      true,
      3,
      0x18fef100,
    ]);
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
    // The uid and the display fields are checked, never kept (the dashboard reads them from the body).
    for (const field of ['uid', 'name', 'visible', 'group', 'aggregated', 'aggregatedLast', 'order', 'unit']) {
      assert.ok(bare !== undefined && full !== undefined && !(field in bare) && !(field in full), `${field} absent`);
    }
    assert.deepEqual(Object.keys(full ?? {}).sort(), [
      'key',
      'pin',
      'scaleGain',
      'scaleOffset',
      'scanIntervalMs',
      'transmitEvents',
      'type',
    ]);
    assert.ok(dm1?.type === 'can' && !('canId' in dm1) && !('databaseParameterAddress' in dm1));
    assert.deepEqual(
      dm1?.type === 'can' ? JSON.stringify(dm1.protocol) : '',
      '{"type":"j1939","pgn":65226,"priority":6}',
    );
  });

  it('given the body (own), reads the same and leaves none of its entries behind; else leaves the body alone', () => {
    const body = () => ({
      buses: [buses[0]],
      channels: [
        { uid: 'a', key: 'a', type: 'analogInput', pin: 1, transmitEvents: [{ type: 'delta', minimalChange: 1 }] },
        { uid: 'x', key: 'x', type: 'digitalInput' },
        { ...holdingRegister },
      ],
    });
    const kept = body();
    const given = body();
    const read = parseChannelList(kept);
    assert.deepEqual(kept, body(), 'not own: the body as it was');
    assert.deepEqual(parseChannelList(given, true), read, 'own: the same configuration, the rejected one included');
    assert.equal(read.channels.length, 2);
    assert.equal(read.rejected.length, 1);
    assert.deepEqual(given.channels, [undefined, undefined, undefined], 'each entry left its array as it was read');
    assert.deepEqual(given.buses, [undefined]);
  });

  it('throws wire.invalid when the body is not a channel list', () => {
    assert.throws(() => parseChannelList([]), 'wire.invalid');
    assert.throws(() => parseChannelList({ buses: [] }), 'wire.invalid');
    assert.throws(() => parseChannelList({ buses: 'x', channels: [] }), 'wire.invalid');
    const e = assert.throws(() => parseChannelList({ buses: [] }), 'wire.invalid');
    assert.equal((e as Error).message, 'channels: expected array, got missing');
  });
});
