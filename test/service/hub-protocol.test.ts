/**
 * The hub `properties` over real loopback sockets (spec 4.8, decisions 5 and
 * 7): negotiate v1 and v0, connection tokens (single-use, bound, expiring),
 * handshake answers and errors, pings, the client timeout, the 32 KB limit,
 * invocations, ignored message types, Close, and the Notify scopes.
 */
import { strict as assert } from 'node:assert';
import { demo, quietHub, useTestService, type TestService, everyDeviceDefaults } from './helpers.js';
import { RawHubClient, terminateAll } from './raw-hub-client.js';

const negotiate = (t: TestService, query: string, token: string = demo.token1): Promise<Response> =>
  fetch(`${t.service.url}/hubs/properties/negotiate${query}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });

describe('service hub protocol', () => {
  const clients: RawHubClient[] = [];
  const t = useTestService(quietHub, { beforeClose: () => terminateAll(clients) });
  const connect = async (token: string = demo.token1, handshake = true): Promise<RawHubClient> => {
    const c = await RawHubClient.connect(t.service.url, token, { handshake });
    clients.push(c);
    return c;
  };

  it('negotiates version 1 with a connectionToken, and version 0 with the connectionId as id', async () => {
    const v1 = (await (await negotiate(t, '?negotiateVersion=1')).json()) as Record<string, unknown>;
    assert.equal(v1['negotiateVersion'], 1);
    assert.equal(typeof v1['connectionId'], 'string');
    assert.equal(typeof v1['connectionToken'], 'string');
    assert.deepEqual(v1['availableTransports'], [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }]);
    const v0 = (await (await negotiate(t, '')).json()) as Record<string, unknown>;
    assert.equal(v0['negotiateVersion'], 0);
    assert.equal('connectionToken' in v0, false);
    const c = await RawHubClient.open(t.service.url, demo.token1, v0['connectionId'] as string);
    clients.push(c);
    c.send('{"protocol":"json","version":1}\u001e');
    await c.waitFor(() => c.records.length === 1);
    assert.deepEqual(c.records[0], {});
    assert.equal((await negotiate(t, '?negotiateVersion=x')).status, 400);
    assert.equal((await negotiate(t, '?negotiateVersion=1', 'bad')).status, 401);
    assert.equal((await fetch(`${t.service.url}/hubs/properties/negotiate`)).status, 405);
  });

  it('binds connection tokens to the access token, uses them once, and expires them after 30 s', async () => {
    const token = async (): Promise<string> =>
      ((await (await negotiate(t, '?negotiateVersion=1')).json()) as { connectionToken: string }).connectionToken;
    const open = (accessToken: string | null, id: string): Promise<RawHubClient> =>
      RawHubClient.open(t.service.url, accessToken, id).then((c) => (clients.push(c), c));
    const a = await token();
    await assert.rejects(open(demo.token2, a), /upgrade 403/);
    await assert.rejects(open(demo.token1, a), /upgrade 404/); // used up by the refused attempt
    const b = await token();
    await open(demo.token1, b);
    await assert.rejects(open(demo.token1, b), /upgrade 404/);
    const c = await token();
    t.clock.nowMs += 30_001;
    await assert.rejects(open(demo.token1, c), /upgrade 404/);
    await assert.rejects(open(null, await token()), /upgrade 401/);
    await assert.rejects(open(demo.token1, 'made-up'), /upgrade 404/);
  });

  it('answers the handshake with {} or with the .NET error texts', async () => {
    const ok = await connect();
    assert.deepEqual(ok.records, [{}]);
    const bad = await connect(demo.token1, false);
    bad.send('{"protocol":"messagepack","version":1}\u001e');
    await bad.waitFor(() => bad.closeCode !== undefined);
    assert.deepEqual(bad.records, [{ error: "The protocol 'messagepack' is not supported." }]);
    const v2 = await connect(demo.token1, false);
    v2.send('{"protocol":"json","version":2}\u001e');
    await v2.waitFor(() => v2.closeCode !== undefined);
    assert.deepEqual(v2.records, [{ error: "The server does not support version 2 of the 'json' protocol." }]);
    const junk = await connect(demo.token1, false);
    junk.send('hello\u001e');
    await junk.waitFor(() => junk.closeCode !== undefined);
    assert.deepEqual(junk.records, [{ error: 'Handshake request was malformed.' }]);
  });

  it('completes invocations by id, split across messages or several in one message', async () => {
    const c = await connect();
    const rec = JSON.stringify({
      type: 1,
      invocationId: '0',
      target: 'SetProperties',
      arguments: [{ values: { 'sample-rate': 3 } }],
    });
    c.send(rec.slice(0, 10));
    c.send(rec.slice(10) + '\u001e');
    await c.waitFor(() => c.ofType(3).length === 1);
    assert.deepEqual(c.ofType(3)[0], {
      type: 3,
      invocationId: '0',
      result: { ...everyDeviceDefaults, 'report-mode': 'normal', 'sample-rate': 3, 'led-enabled': true },
    });
    const two = [
      { type: 1, invocationId: '1', target: 'setproperties', arguments: [{ values: {} }] },
      { type: 1, invocationId: '2', target: 'Nope', arguments: [] },
    ];
    c.send(two.map((m) => JSON.stringify(m) + '\u001e').join(''));
    await c.waitFor(() => c.ofType(3).length === 3);
    assert.equal(c.ofType(3)[1]?.['invocationId'], '1');
    assert.deepEqual(c.ofType(3)[2], {
      type: 3,
      invocationId: '2',
      error: "Failed to invoke 'Nope' due to an error on the server. HubException: Method does not exist.",
    });
  });

  it('ignores pings, completions, stream and unknown message types; runs fire-and-forget invocations', async () => {
    const c = await connect();
    for (const type of [6, 2, 3, 4, 5, 99]) c.sendRecord({ type, invocationId: '9', target: 'SetProperties', item: 1 });
    c.sendRecord({ type: 1, target: 'SetProperties', arguments: [{ values: { 'report-mode': 'quiet' } }] });
    c.sendRecord({ type: 1, invocationId: '10', target: 'SetProperties', arguments: [{ values: {} }] });
    await c.waitFor(() => c.ofType(3).length === 1);
    assert.deepEqual(
      c.records.map((r) => r['type']),
      [undefined, 3],
    );
    assert.equal((c.ofType(3)[0]?.['result'] as Record<string, unknown>)['report-mode'], 'quiet');
    assert.equal(c.closeCode, undefined);
  });

  it('refuses SetProperties from an admin connection and closes on a malformed message', async () => {
    const admin = await connect(demo.admin);
    admin.sendRecord({ type: 1, invocationId: '0', target: 'SetProperties', arguments: [{ values: {} }] });
    await admin.waitFor(() => admin.ofType(3).length === 1);
    assert.match(
      String(admin.ofType(3)[0]?.['error']),
      /^An unexpected error occurred invoking 'SetProperties' on the server. HubException: /,
    );
    admin.send('{not json\u001e');
    await admin.waitFor(() => admin.closeCode !== undefined);
    assert.deepEqual(admin.ofType(7), [{ type: 7, error: 'Connection closed with an error.', allowReconnect: false }]);
  });

  it('closes with an error on a record over 32 KB', async () => {
    const c = await connect();
    c.sendRecord({ type: 1, target: 'SetProperties', arguments: [{ values: { big: 'x'.repeat(33 * 1024) } }] });
    await c.waitFor(() => c.closeCode !== undefined);
    assert.match(String(c.ofType(7)[0]?.['error']), /maximum message size of 32768B was exceeded/);
    const props = (await t.get('/api/v1/properties/get?device=demo-001')).json as Record<string, unknown>;
    assert.equal('big' in props, false);
  });

  it('sends Notify to the device itself and to admins only', async () => {
    const own = await connect(demo.token1);
    const other = await connect(demo.token2);
    const admin = await connect(demo.admin);
    await t.post('/api/v1/states/write', {
      device: 'demo-001',
      states: [
        { channel: 'relay.desired', value: true },
        { channel: 'relay.reported', value: false },
        { channel: 'dimmer.desired', value: 50 },
      ],
    });
    await own.waitFor(() => own.ofType(1).length === 1);
    await admin.waitFor(() => admin.ofType(1).length === 1);
    const n = own.ofType(1)[0] as Record<string, unknown>;
    assert.equal(n['target'], 'Notify');
    const arg = (n['arguments'] as Record<string, unknown>[])[0] as Record<string, unknown>;
    assert.equal(arg['type'], 'states');
    assert.deepEqual(
      (arg['states'] as Record<string, unknown>[]).map((s) => [s['channel'], s['value'], s['entity']]),
      [
        [`${demo.product}:relay.desired`, true, demo.device1],
        [`${demo.product}:dimmer.desired`, 50, demo.device1],
      ],
    );
    // SetProperties over the hub notifies the others, not the caller.
    own.sendRecord({
      type: 1,
      invocationId: '0',
      target: 'SetProperties',
      arguments: [{ values: { 'sample-rate': 9 } }],
    });
    await admin.waitFor(() => admin.ofType(1).length === 2);
    await own.waitFor(() => own.ofType(3).length === 1);
    assert.equal(own.ofType(1).length, 1);
    assert.deepEqual((admin.ofType(1)[1]?.['arguments'] as unknown[])[0], {
      type: 'properties',
      entity: demo.device1,
      values: { 'sample-rate': 9 },
    });
    // A round trip on the other device's connection: it received nothing.
    other.sendRecord({ type: 1, invocationId: '0', target: 'SetProperties', arguments: [{ values: {} }] });
    await other.waitFor(() => other.ofType(3).length === 1);
    assert.equal(other.ofType(1).length, 0);
  });

  it('closes the socket when the client sends Close, and counts connections', async () => {
    const c = await connect();
    assert.equal(t.service.hub.connectionCount(), 1);
    c.sendRecord({ type: 7 });
    await c.waitFor(() => c.closeCode !== undefined);
    assert.equal(t.service.hub.connectionCount(), 0);
  });
});
