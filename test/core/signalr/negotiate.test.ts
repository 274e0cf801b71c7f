import { AgentError } from '../../../src/errors.js';
import { negotiate } from '../../../src/signalr/negotiate.js';
import { assert } from '../../support/assert.js';
import { json, ScriptedHttp } from './harness.js';

describe('signalr/negotiate', () => {
  it('POSTs {base}/hubs/properties/negotiate?negotiateVersion=1 with the bearer token and an empty body', async () => {
    const http = new ScriptedHttp();
    http.script.push(json(200, { negotiateVersion: 1, connectionId: 'id', connectionToken: 'a b/c' }));
    const result = await negotiate(http, 'http://127.0.0.1:8080/', 'tok');
    const request = http.requests[0];
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.url, 'http://127.0.0.1:8080/hubs/properties/negotiate?negotiateVersion=1');
    assert.equal(request.headers['Authorization'], 'Bearer tok');
    assert.equal(request.body, '');
    assert.deepEqual(result, {
      socketUrl: 'ws://127.0.0.1:8080/hubs/properties?id=a%20b%2Fc',
      connectionToken: 'a b/c',
    });
  });

  it('keeps a base path, turns https into wss, and ignores unknown fields', async () => {
    const http = new ScriptedHttp();
    http.script.push(
      json(200, {
        negotiateVersion: 1,
        connectionToken: 't',
        extra: { x: 1 },
        availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
      }),
    );
    const result = await negotiate(http, 'https://dds.example/api', 'tok');
    assert.equal(http.requests[0]?.url, 'https://dds.example/api/hubs/properties/negotiate?negotiateVersion=1');
    assert.equal(result.socketUrl, 'wss://dds.example/api/hubs/properties?id=t');
  });

  it('fails the attempt with the text of an `error` field', async () => {
    const http = new ScriptedHttp();
    http.script.push(json(200, { error: 'Negotiate was disabled' }));
    const e = await assert.rejects(negotiate(http, 'http://h', 't'), 'hub');
    assert.match((e as Error).message, /Negotiate was disabled/);
  });

  it('refuses what a device does not follow: a redirect, version 0, an empty token (wire.invalid)', async () => {
    const answers = [
      { url: 'https://relay.example/client/?hub=properties', accessToken: 'relay-token' },
      { connectionId: 'version-zero' },
      { negotiateVersion: 1, connectionId: 'only-id' },
      { negotiateVersion: 1, connectionToken: '' },
    ];
    for (const body of answers) {
      const http = new ScriptedHttp();
      http.script.push(json(200, body));
      const e = await assert.rejects(negotiate(http, 'http://h', 't'), 'wire.invalid', JSON.stringify(body));
      assert.match((e as Error).message, /connectionToken/);
      assert.equal(http.requests.length, 1, 'no redirect is followed');
    }
  });

  it('maps 401 and 403 to an authentication failure with the status', async () => {
    for (const status of [401, 403]) {
      const http = new ScriptedHttp();
      http.script.push(json(status, { title: 'no' }));
      const e = await assert.rejects(negotiate(http, 'http://h', 't'), 'auth');
      assert.equal((e as AgentError).status, status);
    }
  });

  it('maps other statuses, bad bodies and bad tokens to typed errors', async () => {
    const cases: [unknown, number, string][] = [
      [{}, 500, 'http.status'],
      [{ negotiateVersion: 1, connectionToken: 't' }, 302, 'http.status'],
      ['not json', 200, 'wire.invalid'],
      [[1, 2], 200, 'wire.invalid'],
      [{ negotiateVersion: 1, connectionToken: 42 }, 200, 'wire.invalid'],
      [{ negotiateVersion: 1, connectionToken: 't', error: 7 }, 200, 'wire.invalid'],
    ];
    for (const [body, status, code] of cases) {
      const http = new ScriptedHttp();
      http.script.push(typeof body === 'string' ? { status, headers: {}, body } : json(status, body));
      await assert.rejects(negotiate(http, 'http://h', 't'), code, JSON.stringify(body));
    }
  });

  it('passes a transport failure through', async () => {
    const http = new ScriptedHttp();
    http.script.push(new AgentError('network', 'refused'));
    await assert.rejects(negotiate(http, 'http://h', 't'), 'network');
  });
});
