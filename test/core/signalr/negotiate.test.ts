import { AgentError } from '../../../src/errors.js';
import { negotiate, negotiateUrl, toSocketUrl } from '../../../src/signalr/negotiate.js';
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
    assert.equal(result.socketUrl, 'ws://127.0.0.1:8080/hubs/properties?id=a%20b%2Fc');
    assert.equal(result.accessToken, 'tok');
  });

  it('accepts version 0 (connectionId is the token) and ignores unknown fields', async () => {
    const http = new ScriptedHttp();
    http.script.push(
      json(200, {
        connectionId: 'zero',
        extra: { x: 1 },
        availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
      }),
    );
    const result = await negotiate(http, 'https://dds.example/api', 'tok');
    assert.equal(result.socketUrl, 'wss://dds.example/api/hubs/properties?id=zero');
  });

  it('fails the attempt with the text of an `error` field', async () => {
    const http = new ScriptedHttp();
    http.script.push(json(200, { error: 'Negotiate was disabled' }));
    const e = await assert.rejects(negotiate(http, 'http://h', 't'), 'hub');
    assert.match((e as Error).message, /Negotiate was disabled/);
  });

  it('follows url + accessToken redirects, using the new token and address', async () => {
    const http = new ScriptedHttp();
    http.script.push(json(200, { url: 'https://relay.example/client/?hub=properties', accessToken: 'relay-token' }));
    http.script.push(json(200, { negotiateVersion: 1, connectionToken: 'ct' }));
    const result = await negotiate(http, 'http://h', 't');
    assert.equal(http.requests[1]?.url, 'https://relay.example/client/negotiate?hub=properties&negotiateVersion=1');
    assert.equal(http.requests[1]?.headers['Authorization'], 'Bearer relay-token');
    assert.equal(result.socketUrl, 'wss://relay.example/client/?hub=properties&id=ct');
    assert.equal(result.accessToken, 'relay-token');
  });

  it('gives up after 5 redirects', async () => {
    const http = new ScriptedHttp();
    for (let i = 0; i < 6; i++) http.script.push(json(200, { url: `http://r${i}/hub` }));
    http.script.push(json(200, { negotiateVersion: 1, connectionToken: 'never' }));
    await assert.rejects(negotiate(http, 'http://h', 't'), 'hub');
    assert.equal(http.requests.length, 6);
  });

  it('maps 401 and 403 to an authentication failure with the status', async () => {
    for (const status of [401, 403]) {
      const http = new ScriptedHttp();
      http.script.push(json(status, { title: 'no' }));
      const e = await assert.rejects(negotiate(http, 'http://h', 't'), 'auth');
      assert.equal((e as AgentError).status, status);
    }
  });

  it('maps other statuses, bad bodies, missing tokens and transports to typed errors', async () => {
    const cases: [unknown, number, string][] = [
      [{}, 500, 'http.status'],
      ['not json', 200, 'wire.invalid'],
      [[1, 2], 200, 'wire.invalid'],
      [{ negotiateVersion: 1, connectionId: 'only-id' }, 200, 'hub'],
      [{ negotiateVersion: 1, connectionToken: 42 }, 200, 'wire.invalid'],
      [
        { negotiateVersion: 1, connectionToken: 't', availableTransports: [{ transport: 'LongPolling' }] },
        200,
        'unsupported',
      ],
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

  it('builds addresses without URL', () => {
    assert.equal(toSocketUrl('http://a/b'), 'ws://a/b');
    assert.equal(toSocketUrl('https://a/b'), 'wss://a/b');
    assert.equal(toSocketUrl('wss://a/b'), 'wss://a/b');
    assert.equal(negotiateUrl('http://a/hub/'), 'http://a/hub/negotiate?negotiateVersion=1');
  });
});
