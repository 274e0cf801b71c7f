import { assert } from '../support/assert.js';
import { exceedsBytes, utf8Length } from '../../src/utf8.js';

describe('utf8', () => {
  it('counts UTF-8 bytes of 1-, 2-, 3- and 4-byte characters, and lone surrogates as 3', () => {
    assert.equal(utf8Length(''), 0);
    assert.equal(utf8Length('abc'), 3);
    assert.equal(utf8Length('ü'), 2);
    assert.equal(utf8Length('€'), 3);
    assert.equal(utf8Length('😀'), 4);
    assert.equal(utf8Length('a😀ü€'), 10);
    assert.equal(utf8Length('\ud800'), 3);
    assert.equal(exceedsBytes('€'.repeat(3), 8), true);
    assert.equal(exceedsBytes('€'.repeat(3), 9), false);
    assert.equal(exceedsBytes('abc', 3), false);
  });

  it('counts a long non-ASCII string by code point (an indexed loop was quadratic on XS)', () => {
    const text = 'ü€😀a'.repeat(20000);
    assert.equal(utf8Length(text), 20000 * 10);
  });
});
