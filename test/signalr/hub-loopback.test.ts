/**
 * Our hub client against the local hub over loopback (issue 4): the happy path
 * (SetProperties, Notify after an HTTP `.desired` write, properties Notify)
 * and the framing fault switches (fragmented frames, batched records, records
 * split across messages).
 */
import assert from 'node:assert/strict';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { HubAgentLink } from '../../src/signalr/agent-link.js';
import { demo, demoFixture, loopbackClient, writeStates, type LoopbackClient } from './support/loopback.js';
import { RecordingSink } from './support/recording-sink.js';

describe('signalr against the local hub (loopback)', () => {
  let service: RunningService;
  let c: LoopbackClient;
  let sink: RecordingSink;
  let link: HubAgentLink;

  beforeEach(async () => {
    service = await startService({ fixture: demoFixture });
    c = loopbackClient(service.url);
    sink = new RecordingSink();
    link = new HubAgentLink(c.client, sink, c.logger, { deviceUid: demo.device });
  });

  afterEach(async () => {
    c.client.stop();
    link.close();
    await service.close();
    c.logger.assertNoErrors();
  });

  async function connected(): Promise<void> {
    c.client.start();
    await c.until('connected');
    await sink.until(() => sink.resyncs >= 1);
  }

  async function desiredRoundTrip(value: number): Promise<void> {
    const before = sink.applied.length;
    await writeStates(service.url, demo.admin, demo.deviceKey, [
      { channel: 'dimmer.desired', value, timestamp: 1767225600.5 },
    ]);
    await sink.until(() => sink.applied.length > before);
    assert.deepEqual(sink.applied.at(-1), { key: 'dimmer', value, timestampMs: 1767225600500 });
  }

  it('connects, resyncs, and receives a .desired written over HTTP', async () => {
    await connected();
    assert.equal(service.hub.connectionCount(), 1);
    await desiredRoundTrip(42);
  });

  it('SetProperties: the Completion result becomes the property set', async () => {
    await connected();
    const result = await link.setProperties({ 'report-mode': 'fast' });
    assert.equal(result['report-mode'], 'fast');
    assert.equal(result['sample-rate'], 1);
    assert.deepEqual(sink.properties.at(-1), [result, true]);
  });

  it('SetProperties with a bad property name is rejected with the hub error text', async () => {
    await connected();
    await assert.rejects(link.setProperties({ 'Bad Name!': 1 }), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'hub');
      return true;
    });
    assert.equal(c.client.status, 'connected');
  });

  it('receives a properties Notify after properties/set over HTTP', async () => {
    await connected();
    const response = await fetch(`${service.url}/api/v1/properties/set`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${demo.admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ device: demo.deviceKey, values: { 'sample-rate': 5 } }),
    });
    assert.equal(response.status, 200);
    await sink.until(() => sink.properties.length > 0);
    assert.deepEqual(sink.properties[0], [{ 'sample-rate': 5 }, false]);
  });

  for (const fault of ['fragmentFrames', 'batchRecords', 'splitRecords'] as const) {
    it(`works with the ${fault} fault switch`, async () => {
      service.hub.faults[fault] = true;
      await connected();
      await desiredRoundTrip(7);
      await desiredRoundTrip(8);
      const result = await link.setProperties({ 'led-enabled': false });
      assert.equal(result['led-enabled'], false);
      assert.equal(c.logger.find('warn', 'dropped').length, 0);
    });
  }

  it('refuses an outgoing message over 32 KB and keeps the connection', async () => {
    await connected();
    await assert.rejects(link.setProperties({ big: 'x'.repeat(33000) }), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'too-large');
      return true;
    });
    await desiredRoundTrip(9);
  });
});
