/** Gain and offset both ways, rounding, clamping and rejection (decisions 2). */
import { scaleToValue, valueToRaw } from '../../../src/codec/scale.js';
import { assert } from '../../support/assert.js';

describe('scaling (decisions 2)', () => {
  it('reports raw x gain + offset without float noise', () => {
    assert.equal(scaleToValue(253, 0.1, -40), -14.7);
    assert.equal(scaleToValue(3300, 0.001, 0), 3.3);
    assert.equal(scaleToValue(7, 1, 0), 7);
    assert.equal(scaleToValue(400, 0.1, -40), 0);
    assert.equal(Object.is(scaleToValue(400, 0.1, -40), -0), false, 'never -0');
  });

  it('keeps large values exact', () => {
    assert.equal(scaleToValue(123456789, 2, 0), 246913578);
    // Rounding to 9 decimals would give 1000630.813683984: past 1e6 the value is handed on as computed.
    assert.equal(scaleToValue(1000630.3136839841, 1, 0.5), 1000630.8136839841);
  });

  it('hands on a scaled value that is not finite as it is (never rounded to 0 or NaN)', () => {
    assert.equal(scaleToValue(Number.MAX_VALUE, 10, 0), Infinity);
    assert.equal(scaleToValue(-Number.MAX_VALUE, 10, 0), -Infinity);
    assert.ok(Number.isNaN(scaleToValue(NaN, 0.5, 1)));
    assert.ok(Number.isNaN(scaleToValue(Infinity, 0.5, -Infinity)));
  });

  it('inverts: raw = (value - offset) / gain, rounded to counts', () => {
    const gain = 0.09775171065493646; // 100 % over 0..1023
    assert.deepEqual(valueToRaw(100, gain, 0, { min: 0, max: 1023, integer: true }), 1023);
    assert.deepEqual(valueToRaw(50, gain, 0, { min: 0, max: 1023, integer: true }), 512);
    assert.deepEqual(valueToRaw(0, gain, 0, { min: 0, max: 1023, integer: true }), 0);
    assert.near(valueToRaw(-14.7, 0.1, -40)!, 253, 1e-9);
  });

  it('clamps within half a count of the range and rejects beyond it (-ERANGE: undefined)', () => {
    const range = { min: 0, max: 1023, integer: true };
    assert.deepEqual(valueToRaw(1023.4, 1, 0, range), 1023);
    assert.deepEqual(valueToRaw(-0.4, 1, 0, range), 0);
    assert.deepEqual(valueToRaw(1023.6, 1, 0, range), undefined);
    assert.deepEqual(valueToRaw(-1, 1, 0, range), undefined);
    assert.deepEqual(valueToRaw(101, 0.09775171065493646, 0, range), undefined);
  });

  it('rejects a raw value that is not finite (gain 0 is refused by the channel reader)', () => {
    assert.equal(valueToRaw(1, Number.MIN_VALUE, 0), undefined);
    assert.equal(valueToRaw(1, 0, 0), undefined);
  });

  it('round trips through both directions', () => {
    for (let raw = 0; raw <= 1023; raw += 31) {
      const value = scaleToValue(raw, 0.1, -40);
      assert.deepEqual(valueToRaw(value, 0.1, -40, { min: 0, max: 1023, integer: true }), raw);
    }
  });
});
