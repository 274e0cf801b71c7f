import { parseHandshake, parseHubMessage } from '../../../src/signalr/messages.js';
import { assert } from '../../support/assert.js';

describe('signalr/messages', () => {
  it('types an Invocation, with and without invocationId', () => {
    assert.deepEqual(parseHubMessage('{"type":1,"target":"Notify","arguments":[{"a":1}]}'), {
      kind: 'invocation',
      target: 'Notify',
      arguments: [{ a: 1 }],
      invocationId: undefined,
    });
    const m = parseHubMessage('{"type":1,"target":"X","arguments":[],"invocationId":"7","extra":true}');
    assert.equal(m.kind === 'invocation' ? m.invocationId : 'wrong', '7');
  });

  it('types Completions: result, error, absent result', () => {
    assert.deepEqual(parseHubMessage('{"type":3,"invocationId":"0","result":{"a":1}}'), {
      kind: 'completion',
      invocationId: '0',
      result: { a: 1 },
      error: undefined,
    });
    const e = parseHubMessage('{"type":3,"invocationId":"1","error":"boom"}');
    assert.equal(e.kind === 'completion' ? e.error : 'wrong', 'boom');
    const n = parseHubMessage('{"type":3,"invocationId":"2"}');
    assert.equal(n.kind === 'completion' ? n.result : 'wrong', undefined);
  });

  it('types Ping (canonical or not) and Close', () => {
    assert.equal(parseHubMessage('{"type":6}').kind, 'ping');
    assert.equal(parseHubMessage('{ "type": 6 }').kind, 'ping');
    assert.deepEqual(parseHubMessage('{"type":7,"error":"bye","allowReconnect":true}'), {
      kind: 'close',
      error: 'bye',
      allowReconnect: true,
    });
    assert.deepEqual(parseHubMessage('{"type":7}'), { kind: 'close', error: undefined, allowReconnect: false });
  });

  it('ignores stream messages (2, 4, 5) and unknown types', () => {
    for (const type of [2, 4, 5, 99]) {
      assert.equal(parseHubMessage(JSON.stringify({ type, invocationId: '1', item: 3 })).kind, 'ignored');
    }
  });

  it('refuses malformed records with wire.invalid', () => {
    const bad = [
      'not json',
      '[]',
      'null',
      '{"type":"1"}',
      '{}',
      '{"type":1,"arguments":[]}',
      '{"type":1,"target":"X","arguments":{}}',
      '{"type":1,"target":"X","arguments":[],"invocationId":5}',
      '{"type":3}',
      '{"type":3,"invocationId":"1","error":4}',
      '{"type":7,"allowReconnect":"yes"}',
    ];
    for (const text of bad) assert.throws(() => parseHubMessage(text), 'wire.invalid', text);
  });

  it('accepts an empty handshake answer and refuses one with an error', () => {
    parseHandshake('{}');
    parseHandshake('{"minorVersion":0}');
    assert.throws(() => parseHandshake('{"error":"Requested protocol \'json\' is not available."}'), 'hub');
    assert.throws(() => parseHandshake('x'), 'wire.invalid');
  });
});
