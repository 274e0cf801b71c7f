/** Gain and offset both ways, rounding, clamping and rejection (decisions 2). */
import { scaleToValue, valueToRaw } from '../../../src/codec/scale.js';
import { Errno } from '../../../src/errno.js';
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
  });

  it('inverts: raw = (value - offset) / gain, rounded to counts', () => {
    const gain = 0.09775171065493646; // 100 % over 0..1023
    assert.deepEqual(valueToRaw(100, gain, 0, { min: 0, max: 1023, integer: true }), { ok: true, raw: 1023 });
    assert.deepEqual(valueToRaw(50, gain, 0, { min: 0, max: 1023, integer: true }), { ok: true, raw: 512 });
    assert.deepEqual(valueToRaw(0, gain, 0, { min: 0, max: 1023, integer: true }), { ok: true, raw: 0 });
    const unranged = valueToRaw(-14.7, 0.1, -40);
    assert.ok(unranged.ok);
    assert.near(unranged.raw, 253, 1e-9);
  });

  it('clamps within half a count of the range and rejects beyond it with -ERANGE', () => {
    const range = { min: 0, max: 1023, integer: true };
    assert.deepEqual(valueToRaw(1023.4, 1, 0, range), { ok: true, raw: 1023 });
    assert.deepEqual(valueToRaw(-0.4, 1, 0, range), { ok: true, raw: 0 });
    assert.deepEqual(valueToRaw(1023.6, 1, 0, range), { ok: false, errno: Errno.ERANGE });
    assert.deepEqual(valueToRaw(-1, 1, 0, range), { ok: false, errno: Errno.ERANGE });
    assert.deepEqual(valueToRaw(101, 0.09775171065493646, 0, range), { ok: false, errno: Errno.ERANGE });
  });

  it('rejects non-finite desired values with -EINVAL', () => {
    assert.deepEqual(valueToRaw(NaN, 1, 0), { ok: false, errno: Errno.EINVAL });
    assert.deepEqual(valueToRaw(Infinity, 1, 0), { ok: false, errno: Errno.EINVAL });
  });

  it('round trips through both directions', () => {
    for (let raw = 0; raw <= 1023; raw += 31) {
      const value = scaleToValue(raw, 0.1, -40);
      assert.deepEqual(valueToRaw(value, 0.1, -40, { min: 0, max: 1023, integer: true }), { ok: true, raw });
    }
  });
});
