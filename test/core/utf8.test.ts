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

  it('with a buffer, writes the UTF-8 there from an offset and returns its end (the board store writes its blobs so)', () => {
    const into = new Uint8Array(16).fill(0xff);
    const end = utf8Length('aü€😀\ud800', into, 1);
    assert.equal(end, 1 + 13);
    // a, ü, €, 😀, a lone surrogate as 3 bytes (as counted)
    const expected = [0x61, 0xc3, 0xbc, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80];
    assert.deepEqual([...into], [0xff, ...expected, 0xff, 0xff], 'nothing written outside');
    assert.equal(utf8Length('', into, 5), 5);
  });

  it('counts a long non-ASCII string by code point (an indexed loop was quadratic on XS)', () => {
    const text = 'ü€😀a'.repeat(20000);
    assert.equal(utf8Length(text), 20000 * 10);
  });
});
