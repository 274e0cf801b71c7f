/**
 * Record encoding: the timestamp text made from integers is the text the
 * double would print, and the batcher's byte count of a record is its
 * UTF-8 length, for ASCII and non-ASCII names and values.
 */
import { byteLength } from '../../../src/report/batcher.js';
import { encodeRecord, stampTail, wireSecondsText } from '../../../src/report/records.js';
import { utf8Length } from '../../../src/utf8.js';
import { assert } from '../../support/assert.js';
import { prng } from '../gnss/logs.js';

/** A state record of `channel` (`<name>.reported`). */
const encodeStateValue = (channel: string, value: unknown, unixMs: number) =>
  encodeRecord('s', channel.replace(/\.reported$/, ''), true, value) + stampTail(unixMs);
const encodeStateError = (channel: string, errno: number, unixMs: number) =>
  encodeRecord('s', channel.replace(/\.reported$/, ''), false, errno) + stampTail(unixMs);
const encodeMeasurement = (metric: string, value: unknown, unixMs: number) =>
  encodeRecord('m', metric, true, value) + stampTail(unixMs);

describe('report/records', () => {
  it('prints wire seconds from integers exactly as the double prints', () => {
    const random = prng(18);
    const cases = [0, 1, 999, 1000, 1001, 1767225600000, 1767225600120, 1767225600005, 1767225600050, 1700000000123.6];
    for (let i = 0; i < 20000; i++) cases.push(Math.floor(random() * 4102444800000) + (i % 3 === 0 ? 0.5 : 0));
    for (const ms of [...cases, -1500, -0.4, 2 ** 60]) {
      assert.equal(wireSecondsText(ms), String(Math.round(ms) / 1000), `ms ${ms}`);
    }
  });

  it('writes the wire text of each record kind, field by field in this order', () => {
    assert.equal(
      encodeStateValue('temp.reported', 21.5, 1767225600123),
      '{"channel":"temp.reported","value":21.5,"timestamp":1767225600.123}',
    );
    assert.equal(
      encodeStateError('temp.reported', -110, 1767225600000),
      '{"channel":"temp.reported","error":-110,"timestamp":1767225600}',
    );
    assert.equal(
      encodeMeasurement('gps', { lat: 1.5, lon: 2 }, 1767225600010),
      '{"metric":"gps","value":{"lat":1.5,"lon":2},"timestamp":1767225600.01}',
    );
    assert.equal(encodeStateValue('ok.reported', false, 1000), '{"channel":"ok.reported","value":false,"timestamp":1}');
    assert.equal(encodeStateValue('x.reported', NaN, 1000), '{"channel":"x.reported","value":"NaN","timestamp":1}');
    assert.equal(encodeMeasurement('m', -Infinity, 1000), '{"metric":"m","value":"-Infinity","timestamp":1}');
    assert.equal(encodeMeasurement('m', undefined, 1000), '{"metric":"m","value":null,"timestamp":1}');
  });

  it('completes a held record (its head) into the text a stamped one has', () => {
    const head = encodeRecord('s', 'temp', true, 21.5);
    assert.equal(head, '{"channel":"temp.reported","value":21.5,"timestamp":');
    assert.equal(head + stampTail(1767225600123), encodeStateValue('temp.reported', 21.5, 1767225600123));
    // The tail is made once per timestamp and follows it when it changes.
    assert.equal(stampTail(1767225600123), '1767225600.123}');
    assert.equal(stampTail(1767225601000), '1767225601}');
  });

  it('encodes records as JSON whose UTF-8 byte count the batcher counts, for ASCII and non-ASCII text', () => {
    const records = [
      encodeStateValue('temp.reported', 21.5, 1767225600123),
      encodeStateValue('température.reported', 21.5, 1767225600123),
      encodeStateValue('label.reported', 'Grüße 🌡', 1767225600124),
      encodeStateError('日本.reported', -110, 1767225600125),
      encodeStateValue('ok.reported', true, 1767225600126),
      encodeMeasurement('Ort', { lat: 59.3, label: 'Göteborg' }, 1767225600128),
    ];
    for (const r of records) assert.equal(byteLength(r), utf8Length(r), r);
    assert.equal(byteLength(records[0]!), records[0]!.length);
    assert.deepEqual(JSON.parse(records[2]!), {
      channel: 'label.reported',
      value: 'Grüße 🌡',
      timestamp: 1767225600.124,
    });
    assert.deepEqual(JSON.parse(records[3]!), { channel: '日本.reported', error: -110, timestamp: 1767225600.125 });
    assert.deepEqual(JSON.parse(records[5]!), {
      metric: 'Ort',
      value: { lat: 59.3, label: 'Göteborg' },
      timestamp: 1767225600.128,
    });
  });
});
