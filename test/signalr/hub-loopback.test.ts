/**
 * Our hub client against the local hub over loopback (docs/realtime.md): the happy path
 * (SetProperties, Notify after an HTTP `.desired` write, properties Notify)
 * and the framing fault switches (fragmented frames, batched records, records
 * split across messages).
 */
import assert from 'node:assert/strict';
import { setProperties } from '../../src/signalr/properties.js';
import { useHubSession } from './support/hub-session.js';
import { demo, writeStates } from './support/loopback.js';
import { RecordingSink } from './support/recording-sink.js';

describe('signalr against the local hub (loopback)', () => {
  const h = useHubSession({ sink: () => new RecordingSink(), assertNoErrors: true });

  async function connected(): Promise<void> {
    h.c.client.start();
    await h.c.until('connected');
    await h.sink.until(() => h.sink.resyncs >= 1);
  }

  async function desiredRoundTrip(value: number): Promise<void> {
    const before = h.sink.applied.length;
    await writeStates(h.service.url, demo.admin, demo.deviceKey, [
      { channel: 'dimmer.desired', value, timestamp: 1767225600.5 },
    ]);
    await h.sink.until(() => h.sink.applied.length > before);
    assert.deepEqual(h.sink.applied.at(-1), { key: 'dimmer', value, timestampMs: 1767225600500 });
  }

  it('connects, resyncs, and receives a .desired written over HTTP', async () => {
    await connected();
    assert.equal(h.service.hub.connectionCount(), 1);
    await desiredRoundTrip(42);
  });

  it('SetProperties: the Completion result becomes the property set', async () => {
    await connected();
    const result = await setProperties(h.invoker, h.sink, { 'report-mode': 'fast' });
    assert.equal(result['report-mode'], 'fast');
    assert.equal(result['sample-rate'], 1);
    assert.deepEqual(h.sink.properties.at(-1), [result, true]);
  });

  it('SetProperties with a bad property name is rejected with the hub error text', async () => {
    await connected();
    await assert.rejects(setProperties(h.invoker, h.sink, { 'Bad Name!': 1 }), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'hub');
      return true;
    });
    assert.equal(h.c.client.status, 'connected');
  });

  it('receives a properties Notify after properties/set over HTTP', async () => {
    await connected();
    const response = await fetch(`${h.service.url}/api/v1/properties/set`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${demo.admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ device: demo.deviceKey, values: { 'sample-rate': 5 } }),
    });
    assert.equal(response.status, 200);
    await h.sink.until(() => h.sink.properties.length > 0);
    assert.deepEqual(h.sink.properties[0], [{ 'sample-rate': 5 }, false]);
  });

  for (const fault of ['fragmentFrames', 'batchRecords', 'splitRecords'] as const) {
    it(`works with the ${fault} fault switch`, async () => {
      h.service.hub.faults[fault] = true;
      await connected();
      await desiredRoundTrip(7);
      await desiredRoundTrip(8);
      const result = await setProperties(h.invoker, h.sink, { 'led-enabled': false });
      assert.equal(result['led-enabled'], false);
      assert.equal(h.c.logger.find('warn', 'dropped').length, 0);
    });
  }

  it('refuses an outgoing message over 32 KB and keeps the connection', async () => {
    await connected();
    await assert.rejects(
      setProperties(h.invoker, h.sink, { big: 'x'.repeat(33000) }),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'too-large');
        return true;
      },
    );
    await desiredRoundTrip(9);
  });
});
