import { encodeRecord, RecordDecoder } from '../../../src/signalr/record-codec.js';
import { assert } from '../../support/assert.js';

const RS = '\u001e';

function decodeAll(decoder: RecordDecoder, chunks: readonly string[]): string[] {
  const records: string[] = [];
  for (const chunk of chunks) decoder.push(chunk, (r) => records.push(r));
  return records;
}

describe('signalr/record-codec', () => {
  const transcript =
    '{}' +
    RS +
    encodeRecord({ type: 6 }) +
    encodeRecord({ type: 1, target: 'Notify', arguments: [{ type: 'states', text: 'a\u001eb ü €' }] }) +
    encodeRecord({ type: 3, invocationId: '0', result: { 'led-enabled': true } });
  const expected = transcript.split(RS).slice(0, -1);

  it('ends each record with 0x1E, and escapes 0x1E inside strings', () => {
    const text = encodeRecord({ s: '\u001e' });
    assert.equal(text, '{"s":"\\u001e"}' + RS);
    assert.equal(text.indexOf(RS), text.length - 1);
  });

  it('decodes the handshake answer followed by records, whole, split at every offset, and byte by byte', () => {
    assert.deepEqual(decodeAll(new RecordDecoder(32768), [transcript]), expected);
    for (let at = 0; at <= transcript.length; at++) {
      const parts = [transcript.slice(0, at), transcript.slice(at)];
      assert.deepEqual(decodeAll(new RecordDecoder(32768), parts), expected, `split at ${at}`);
    }
    assert.deepEqual(decodeAll(new RecordDecoder(32768), transcript.split('')), expected);
  });

  it('keeps a partial record until its separator arrives, and nothing after it', () => {
    const decoder = new RecordDecoder(100);
    assert.deepEqual(decodeAll(decoder, ['{"type":']), []);
    assert.deepEqual(decodeAll(decoder, ['6}' + RS]), ['{"type":6}']);
    assert.deepEqual(decodeAll(decoder, ['{"a":1}' + RS + '{"b"', ':2}' + RS]), ['{"a":1}', '{"b":2}']);
  });

  it('refuses a record over the limit instead of growing, then decodes the next one', () => {
    const decoder = new RecordDecoder(16);
    assert.throws(() => decoder.push('x'.repeat(17), () => undefined), 'too-large');
    assert.throws(() => decoder.push('y'.repeat(10) + 'z'.repeat(10) + RS, () => undefined), 'too-large');
    assert.deepEqual(decodeAll(decoder, ['{"type":6}' + RS]), ['{"type":6}']);
    // The limit counts UTF-8 bytes: 6 euro signs are 18 bytes.
    assert.throws(() => new RecordDecoder(16).push('€'.repeat(6) + RS, () => undefined), 'too-large');
    assert.deepEqual(decodeAll(new RecordDecoder(18), ['€'.repeat(6) + RS]), ['€'.repeat(6)]);
  });
});
