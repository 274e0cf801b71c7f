import { parseHubMessage } from '../../../src/signalr/record-codec.js';
import { assert } from '../../support/assert.js';

describe('signalr/messages', () => {
  it('checks an Invocation in place, with and without invocationId', () => {
    assert.deepEqual(parseHubMessage('{"type":1,"target":"Notify","arguments":[{"a":1}]}'), {
      type: 1,
      target: 'Notify',
      arguments: [{ a: 1 }],
    });
    const m = parseHubMessage('{"type":1,"target":"X","arguments":[],"invocationId":"7","extra":true}');
    assert.equal(m?.type === 1 ? m.invocationId : 'wrong', '7');
  });

  it('passes Completions on whole, for their reader (the invoker) to check', () => {
    assert.deepEqual(parseHubMessage('{"type":3,"invocationId":"0","result":{"a":1}}'), {
      type: 3,
      invocationId: '0',
      result: { a: 1 },
    });
    assert.deepEqual(parseHubMessage('{"type":3,"error":4}'), { type: 3, error: 4 });
  });

  it('ignores Ping (canonical or not), checks Close', () => {
    assert.equal(parseHubMessage('{"type":6}'), undefined);
    assert.equal(parseHubMessage('{ "type": 6 }'), undefined);
    assert.deepEqual(parseHubMessage('{"type":7,"error":"bye","allowReconnect":true}'), {
      type: 7,
      error: 'bye',
      allowReconnect: true,
    });
    assert.deepEqual(parseHubMessage('{"type":7}'), { type: 7 });
  });

  it('ignores stream messages (2, 4, 5), unknown types and records without a type', () => {
    for (const text of ['{"type":2,"invocationId":"1","item":3}', '{"type":4}', '{"type":5}', '{"type":99}', '{}']) {
      assert.equal(parseHubMessage(text), undefined, text);
    }
    assert.equal(parseHubMessage('{"type":"1","target":5}'), undefined);
  });

  it('refuses malformed records with wire.invalid', () => {
    const bad = [
      'not json',
      '[]',
      'null',
      '{"type":1,"arguments":[]}',
      '{"type":1,"target":"X","arguments":{}}',
      '{"type":1,"target":"X"}',
      '{"type":1,"target":"X","arguments":[],"invocationId":5}',
      '{"type":7,"error":{}}',
      '{"type":7,"allowReconnect":"yes"}',
    ];
    for (const text of bad) assert.throws(() => parseHubMessage(text), 'wire.invalid', text);
  });
});
