/**
 * The hub under random frames: whatever a client sends after the handshake
 * (broken JSON, unknown types, hostile invocations, deep nesting, records split
 * or glued together), the service answers or closes that one connection with
 * an error, keeps serving everyone else, and its memory stays bounded.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { demo, quietHub, useTestService } from './helpers.js';
import { RawHubClient } from './raw-hub-client.js';

const RS = '\u001e';

const message = fc.oneof(
  fc.anything(),
  fc.record(
    {
      type: fc.oneof(fc.integer({ min: -1, max: 9 }), fc.anything()),
      target: fc.oneof(fc.constantFrom('SetProperties', 'setproperties', 'Notify', ''), fc.anything()),
      invocationId: fc.oneof(fc.string(), fc.anything()),
      arguments: fc.oneof(
        fc.array(fc.record({ values: fc.dictionary(fc.string(), fc.anything()) }), { maxLength: 2 }),
        fc.anything(),
      ),
    },
    { requiredKeys: [] },
  ),
);
const deep = fc.integer({ min: 30, max: 5000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);
const frame = fc.oneof(
  message.map((m) => (JSON.stringify(m) ?? 'null') + RS),
  deep.map((d) => d + RS),
  fc.string().map((s) => s + RS),
  fc.string(),
  fc.constant(RS),
);

describe('service hub under random frames', function () {
  this.timeout(60_000);
  const open: RawHubClient[] = [];
  const t = useTestService(quietHub, {
    once: true,
    beforeClose: () => open.splice(0).forEach((c) => c.ws.terminate()),
  });

  it('answers or closes the one connection, never crashes, and keeps serving', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 6 }), fc.boolean(), async (frames, glue) => {
        const c = await RawHubClient.connect(t.service.url, demo.token1);
        open.push(c);
        if (glue) c.send(frames.join(''));
        else for (const f of frames) c.send(f);
        // A probe invocation after the frames: it is answered in order, or the connection was closed.
        c.send(`{"type":1,"target":"SetProperties","invocationId":"probe","arguments":[{"values":{}}]}${RS}`);
        await c.waitFor(() => c.closeCode !== undefined || c.records.some((r) => r['invocationId'] === 'probe'), 5000);
        c.ws.terminate();
        open.splice(open.indexOf(c), 1);
      }),
      { numRuns: 400 },
    );
    const r = await t.get('/api/v1/devices/list');
    assert.equal(r.status, 200);
    const after = await RawHubClient.connect(t.service.url, demo.token2);
    open.push(after);
    assert.ok(t.service.hub.connectionCount() <= 8, `connections left open: ${t.service.hub.connectionCount()}`);
    const growthMiB = (process.memoryUsage().heapUsed - heapBefore) / 1048576;
    assert.ok(growthMiB < 64, `heap grew by ${growthMiB.toFixed(1)} MiB`);
  });
});
