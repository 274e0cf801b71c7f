/**
 * Record encoding: the timestamp text made from integers is the text the
 * double would print, and the byte count the encoder hands the batcher is the
 * UTF-8 length, for ASCII and non-ASCII names and values.
 */
import { byteLength } from '../../../src/report/batcher.js';
import {
  encodeMeasurement,
  encodeStateError,
  encodeStateValue,
  encodedByteLength,
  toWireSeconds,
  wireSecondsText,
} from '../../../src/report/records.js';
import { utf8Length } from '../../../src/utf8.js';
import { assert } from '../../support/assert.js';
import { prng } from '../gnss/logs.js';

describe('report/records', () => {
  it('prints wire seconds from integers exactly as the double prints', () => {
    const random = prng(18);
    const cases = [0, 1, 999, 1000, 1001, 1767225600000, 1767225600120, 1767225600005, 1767225600050, 1700000000123.6];
    for (let i = 0; i < 20000; i++) cases.push(Math.floor(random() * 4102444800000) + (i % 3 === 0 ? 0.5 : 0));
    for (const ms of [...cases, -1500, -0.4, 2 ** 60]) {
      assert.equal(wireSecondsText(ms), String(toWireSeconds(ms)), `ms ${ms}`);
    }
  });

  it('knows the UTF-8 byte count of each record it encodes, so the batcher counts without a scan', () => {
    const records = [
      encodeStateValue('temp.reported', 21.5, 1767225600123),
      encodeStateValue('température.reported', 21.5, 1767225600123),
      encodeStateValue('label.reported', 'Grüße 🌡', 1767225600124),
      encodeStateError('日本.reported', -110, 1767225600125),
      encodeStateValue('ok.reported', true, 1767225600126),
    ];
    for (const r of records) {
      const fresh = encodeStateValue('x.reported', 1, 1); // another record is now the last one
      assert.equal(encodedByteLength(r), -1, 'only the last record is known');
      assert.equal(byteLength(r), utf8Length(r), r);
      assert.equal(byteLength(fresh), fresh.length);
    }
    for (const make of [
      () => encodeStateValue('température.reported', 'Grüße 🌡', 1767225600123),
      () => encodeStateError('日本.reported', -110, 1767225600125),
      () => encodeStateValue('temp.reported', 21.5, 1767225600127),
    ]) {
      const r = make();
      assert.equal(encodedByteLength(r), utf8Length(r), r);
      assert.equal(byteLength(r), utf8Length(r), r);
    }
    const m = encodeMeasurement('Ort', { lat: 59.3, label: 'Göteborg' }, 1767225600128);
    assert.equal(byteLength(m), utf8Length(m), 'a measurement is counted by the batcher');
    assert.equal(JSON.parse(records[2] as string).value, 'Grüße 🌡');
  });
});
