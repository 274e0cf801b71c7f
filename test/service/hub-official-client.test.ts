/**
 * The official @microsoft/signalr client against the local hub (docs/service.md, what
 * must be shown): connects with a device token, calls SetProperties, receives
 * Notify after an HTTP `.desired` write, and is refused with a bad token.
 */
import { strict as assert } from 'node:assert';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { demo, useTestService, type TestService, everyDeviceDefaults } from './helpers.js';

function connect(t: TestService, token: string): HubConnection {
  return new HubConnectionBuilder()
    .withUrl(`${t.service.url}/hubs/properties`, {
      accessTokenFactory: () => token,
      transport: HttpTransportType.WebSockets,
    })
    .configureLogging(LogLevel.None)
    .build();
}

/** Resolves with the first Notify argument that `match` accepts. */
function nextNotify(
  c: HubConnection,
  match: (arg: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const handler = (arg: Record<string, unknown>): void => {
      if (!match(arg)) return;
      c.off('Notify', handler);
      resolve(arg);
    };
    c.on('Notify', handler);
  });
}

describe('service hub with the official @microsoft/signalr client', () => {
  const t = useTestService({ now: Date.now });

  it('connects with a device token and SetProperties returns the whole property set', async () => {
    const c = connect(t, demo.token1);
    await c.start();
    assert.equal(t.service.hub.connectionCount(), 1);
    const result = (await c.invoke('SetProperties', { values: { 'sample-rate': 5 } })) as Record<string, unknown>;
    assert.deepEqual(result, {
      ...everyDeviceDefaults,
      'report-mode': 'normal',
      'sample-rate': 5,
      'led-enabled': true,
    });
    const props = await t.get('/api/v1/properties/get?device=demo-001');
    assert.equal((props.json as Record<string, unknown>)['sample-rate'], 5);
    await c.stop();
  });

  it('receives Notify after an HTTP .desired write, only for its own device', async () => {
    const c1 = connect(t, demo.token1);
    const c2 = connect(t, demo.token2);
    await c1.start();
    await c2.start();
    const seen2: unknown[] = [];
    c2.on('Notify', (a: unknown) => seen2.push(a));
    const got = nextNotify(c1, (a) => a['type'] === 'states');
    const w = await t.post('/api/v1/states/write', {
      device: 'demo-001',
      states: [{ channel: 'relay.desired', value: true }],
    });
    assert.equal(w.status, 200);
    const arg = await got;
    assert.equal(arg['entity'], demo.device1);
    const states = arg['states'] as Record<string, unknown>[];
    assert.equal(states.length, 1);
    assert.equal(states[0]?.['channel'], `${demo.product}:relay.desired`);
    assert.equal(states[0]?.['value'], true);
    // A round trip on c2 proves it had the chance to receive and did not.
    await c2.invoke('SetProperties', { values: {} });
    assert.deepEqual(seen2, []);
    await c1.stop();
    await c2.stop();
  });

  it('receives a properties Notify after an HTTP properties/set', async () => {
    const c = connect(t, demo.token1);
    await c.start();
    const got = nextNotify(c, (a) => a['type'] === 'properties');
    await t.post('/api/v1/properties/set', {
      device: 'demo-001',
      values: { 'report-mode': 'fast', 'led-enabled': true },
    });
    assert.deepEqual(await got, { type: 'properties', entity: demo.device1, values: { 'report-mode': 'fast' } });
    await c.stop();
  });

  it('reports hub errors with the .NET server texts', async () => {
    const c = connect(t, demo.token1);
    await c.start();
    await assert.rejects(
      c.invoke('NoSuchMethod', 1),
      /Failed to invoke 'NoSuchMethod' due to an error on the server. HubException: Method does not exist./,
    );
    await assert.rejects(
      c.invoke('SetProperties', { values: { 'Bad Name': 1 } }),
      /An unexpected error occurred invoking 'SetProperties' on the server. HubException: values.Bad Name/,
    );
    await assert.rejects(
      c.invoke('SetProperties', 1, 2),
      /Failed to invoke 'SetProperties' due to an error on the server.$/,
    );
    await c.stop();
  });

  it('is refused with a bad token', async () => {
    const c = connect(t, 'not-a-token');
    await assert.rejects(c.start(), /401/);
    assert.equal(t.service.hub.connectionCount(), 0);
  });
});
