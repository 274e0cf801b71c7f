/**
 * The catalog's device lookup by uid or external key (spec 2.1): keys are
 * found in O(1) once seen, and a key changed by `devices/set` (which assigns
 * `device.key`) answers at once under its new value and never under its old.
 */
import { strict as assert } from 'node:assert';
import { Catalog } from '../../host-sim/service/catalog.js';
import { demoFixture } from './helpers.js';

describe('service catalog', () => {
  it('finds devices by uid and by key, following key changes', () => {
    const catalog = new Catalog(demoFixture());
    const [first, second] = catalog.devices;
    assert.ok(first && second);
    assert.equal(catalog.deviceByRef(first.uid), first);
    assert.equal(catalog.deviceByRef(first.key), first);
    assert.equal(catalog.deviceByRef(second.key), second);
    assert.equal(catalog.deviceByRef('no-such-key'), undefined);

    const oldKey = first.key;
    for (let i = 0; i < 10; i++) {
      first.key = `renamed-${i}`;
      assert.equal(catalog.deviceByRef(first.key), first);
      assert.equal(catalog.deviceByRef(oldKey), undefined);
      assert.equal(catalog.deviceByRef(`renamed-${i - 1}`), undefined);
    }
    // The old key given to the other device now finds that one.
    second.key = oldKey;
    assert.equal(catalog.deviceByRef(oldKey), second);
    assert.equal(catalog.deviceByRef(first.uid), first);
  });
});
