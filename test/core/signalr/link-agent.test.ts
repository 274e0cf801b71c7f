/** The link between the hub client and the agent (linkAgent, src/signalr/agent-hub.ts). */
import type { DesiredRecord, DesiredStateSink } from '../../../src/agent/desired.js';
import type { Value } from '../../../src/agent/driver.js';
import { AgentError } from '../../../src/errors.js';
import { linkAgent, type AgentLinkOptions } from '../../../src/signalr/agent-hub.js';
import { notifiedProperties } from '../../../src/signalr/properties.js';
import { settle } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';
import { harness } from './harness.js';

class FakeSink implements DesiredStateSink {
  readonly applied: DesiredRecord[] = [];
  readonly properties: [Record<string, Value>, boolean][] = [];
  resyncs = 0;
  reconnects = 0;
  failResync = false;
  gate: Promise<void> | undefined;

  async applyDesired(record: DesiredRecord): Promise<void> {
    if (this.gate !== undefined) await this.gate;
    this.applied.push(record);
  }
  async resyncDesired(): Promise<void> {
    this.resyncs++;
    if (this.failResync) throw new AgentError('network', 'read/last failed');
  }
  updateProperties(values: Readonly<Record<string, Value>>, replace: boolean): void {
    this.properties.push([{ ...values }, replace]);
  }
  hubReconnected(): void {
    this.reconnects++;
  }
}

const P = '6f1c2e1a-0000-4000-8000-000000000001';
const D = 'd0000000-0000-4000-8000-000000000001';

function statesNotify(states: unknown[], entity = D) {
  return { type: 1, target: 'Notify', arguments: [{ type: 'states', entity, states }] };
}

async function setup(options: AgentLinkOptions = {}, withProperties = true) {
  const h = harness();
  const sink = new FakeSink();
  const properties = withProperties ? notifiedProperties(sink) : undefined;
  const link = linkAgent(h.client, sink, h.logger, { deviceUid: D, properties, ...options });
  const socket = await h.connect();
  await link.idle();
  return { h, sink, link, socket };
}

describe('signalr/agent-hub: the link', () => {
  it('applies each .desired record of a states Notify, key stripped, timestamp in ms', async () => {
    const { sink, link, socket } = await setup();
    socket.receiveRecords(
      statesNotify([
        { channel: `${P}:relay.desired`, value: true, entity: D, timestamp: 1767225600.123 },
        { channel: `${P}:relay.reported`, value: false, entity: D, timestamp: 1767225600 },
        { channel: `${P}:gps.lat.desired`, value: 47.5, entity: D, timestamp: 1767225601 },
        { channel: 'dimmer.desired', value: 40, timestamp: 1767225602 },
      ]),
    );
    await link.idle();
    assert.deepEqual(sink.applied, [
      { key: 'relay', value: true, timestampMs: 1767225600123 },
      { key: 'gps.lat', value: 47.5, timestampMs: 1767225601000 },
      { key: 'dimmer', value: 40, timestampMs: 1767225602000 },
    ]);
  });

  it('takes Notify whatever the case of its target, and nothing else', async () => {
    const { sink, link, socket } = await setup();
    const state = (value: number) => ({ channel: `${P}:dimmer.desired`, value, timestamp: value });
    socket.receiveRecords(
      { type: 1, target: 'NOTIFY', arguments: [{ type: 'states', entity: D, states: [state(1)] }] },
      { type: 1, target: 'Other', arguments: [{ type: 'states', entity: D, states: [state(2)] }] },
      { type: 1, target: 'notify', arguments: [{ type: 'states', entity: D, states: [state(3)] }] },
    );
    await link.idle();
    assert.deepEqual(
      sink.applied.map((r) => r.value),
      [1, 3],
    );
  });

  it('merges properties from a properties Notify', async () => {
    const { sink, socket } = await setup();
    socket.receiveRecords({
      type: 1,
      target: 'Notify',
      arguments: [{ type: 'properties', entity: D, values: { interval: 5, label: 'x' } }],
    });
    assert.deepEqual(sink.properties, [[{ interval: 5, label: 'x' }, false]]);
  });

  it('skips a properties Notify, unlogged, where no properties receiver is plugged (a board)', async () => {
    const { h, sink, link, socket } = await setup({}, false);
    socket.receiveRecords({
      type: 1,
      target: 'Notify',
      arguments: [
        { type: 'properties', entity: D, values: { interval: 5 } },
        { type: 'states', entity: D, states: [{ channel: `${P}:fan.desired`, value: 2, timestamp: 3 }] },
      ],
    });
    await link.idle();
    assert.deepEqual(sink.properties, []);
    assert.deepEqual(
      sink.applied.map((r) => r.key),
      ['fan'],
    );
    assert.equal(h.logger.find('warn', 'hub: Notify dropped').length, 0);
  });

  it('ignores other devices, unknown types and malformed state records; logs malformed Notify arguments', async () => {
    const { h, sink, link, socket } = await setup();
    socket.receiveRecords(
      statesNotify([{ channel: `${P}:relay.desired`, value: true, timestamp: 1 }], 'someone-else'),
      { type: 1, target: 'Notify', arguments: [{ type: 'future' }] },
      statesNotify([
        { channel: `${P}:relay.desired`, value: { no: 1 }, timestamp: 1 },
        { channel: `${P}:relay.desired`, value: 1 },
        { channel: `${P}:fan.desired`, value: 2, timestamp: 3 },
      ]),
      { type: 1, target: 'Notify', arguments: [{ type: 'states', states: 'not a list' }] },
      { type: 1, target: 'Notify', arguments: [{ type: 'properties', values: { a: [1] } }] },
    );
    await link.idle();
    assert.deepEqual(
      sink.applied.map((r) => r.key),
      ['fan'],
    );
    assert.deepEqual(sink.properties, []);
    assert.equal(sink.resyncs, 1);
    assert.equal(h.logger.find('warn', 'hub: Notify dropped').length, 2);
  });

  it('resyncs desired states on every connect and reconnect; a failed resync is logged', async () => {
    const { h, sink, link, socket } = await setup();
    assert.equal(sink.resyncs, 1);
    sink.failResync = true;
    socket.drop();
    await h.clock.advanceAsync(1000);
    h.sockets.last.accept();
    await link.idle();
    assert.equal(sink.resyncs, 2);
    assert.equal(h.logger.find('warn', 'desired sync failed').length, 1);
    assert.equal(h.client.status, 'connected');
  });

  it('tells the sink about every reconnect (the configuration is re-read), not about the first connect', async () => {
    const { h, sink, link, socket } = await setup();
    assert.equal(sink.reconnects, 0);
    socket.drop();
    await h.clock.advanceAsync(1000);
    h.sockets.last.accept();
    await link.idle();
    assert.equal(sink.reconnects, 1);
    h.sockets.last.drop();
    await h.clock.advanceAsync(2000);
    h.sockets.last.accept();
    await link.idle();
    assert.equal(sink.reconnects, 2);
  });

  it('bounds the desired queue: overflow is counted and a resync is queued instead', async () => {
    const { h, sink, link, socket } = await setup({ maxQueued: 2 });
    let open: () => void = () => undefined;
    sink.gate = new Promise((resolve) => (open = resolve));
    const states = [1, 2, 3, 4].map((v) => ({ channel: `${P}:dimmer.desired`, value: v, timestamp: v }));
    socket.receiveRecords(statesNotify(states));
    assert.equal(link.dropped, 2);
    assert.equal(h.logger.find('warn', 'desired queue full').length, 1, 'once per resync, not per record');
    open();
    await settle();
    await link.idle();
    assert.deepEqual(
      sink.applied.map((r) => r.value),
      [1, 2],
    );
    assert.equal(sink.resyncs, 2);
  });

  it('close() detaches from the client: no Notify, no resync', async () => {
    const { h, sink, link, socket } = await setup();
    link.close();
    socket.receiveRecords(statesNotify([{ channel: `${P}:relay.desired`, value: true, timestamp: 1 }]));
    socket.drop();
    await h.clock.advanceAsync(1000);
    h.sockets.last.accept();
    await link.idle();
    assert.deepEqual(sink.applied, []);
    assert.equal(sink.resyncs, 1);
  });

  it('a sink whose hubReconnected throws is logged by the client, and the link goes on', async () => {
    const { h, sink, link, socket } = await setup();
    sink.hubReconnected = () => {
      throw new Error('bad sink');
    };
    socket.drop();
    await h.clock.advanceAsync(1000);
    h.sockets.last.accept();
    await link.idle();
    assert.equal(sink.resyncs, 2);
    assert.equal(h.logger.find('error', 'listener failed').length, 1);
    h.sockets.last.receiveRecords(statesNotify([{ channel: `${P}:relay.desired`, value: true, timestamp: 1 }]));
    await link.idle();
    assert.equal(sink.applied.length, 1);
  });
});
