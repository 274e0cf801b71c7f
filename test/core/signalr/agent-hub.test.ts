/**
 * The hub wiring both targets share (src/signalr/agent-hub.ts): every
 * connection token a negotiate hands out is redacted while it is current and
 * forgotten when the next one replaces it; the configured token stays redacted
 * (the caller registers it); the link resyncs desired values on connect;
 * pushed properties reach the agent only where a host plugs them in.
 */
import { RedactingLogger } from '../../../src/log/redact.js';
import { startAgentHub } from '../../../src/signalr/agent-hub.js';
import { notifiedProperties } from '../../../src/signalr/properties.js';
import type { Value } from '../../../src/agent/driver.js';
import type { DesiredRecord } from '../../../src/agent/desired.js';
import { settle } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';
import { harness, json } from './harness.js';

describe('signalr: the shared agent hub wiring', () => {
  it('redacts each connection token while it is current, forgetting it when the next replaces it', async () => {
    const h = harness();
    const logger = new RedactingLogger(h.logger);
    logger.addSecret('device-token-1');
    let resyncs = 0;
    const agent = {
      device: { uid: 'uid-1' },
      applyDesired: async (_record: DesiredRecord): Promise<void> => undefined,
      resyncDesired: async (): Promise<void> => void resyncs++,
      updateProperties: (): void => undefined,
    };
    const negotiated = (token: string) => json(200, { negotiateVersion: 1, connectionId: 'c', connectionToken: token });
    h.http.script.push(negotiated('connection-token-one'));
    const wired = startAgentHub({
      agent,
      baseUrl: 'http://127.0.0.1:8080',
      token: 'device-token-1',
      http: h.http,
      sockets: h.sockets,
      clock: h.clock,
      logger,
      retry: h.policy,
    });
    await settle();
    assert.equal(h.sockets.last.url, 'ws://127.0.0.1:8080/hubs/properties?id=connection-token-one');
    h.sockets.last.accept();
    await settle();
    assert.equal(wired.hub.status, 'connected');
    assert.equal(resyncs, 1);
    const said = (text: string): string => {
      logger.log('info', text);
      return h.logger.lines.at(-1)!.message;
    };
    assert.equal(said('device-token-1 connection-token-one'), '[redacted] [redacted]');
    h.http.script.push(negotiated('connection-token-two'));
    h.sockets.last.drop();
    await h.clock.advanceAsync(1000);
    await settle();
    h.sockets.last.accept();
    await settle();
    assert.equal(resyncs, 2);
    assert.equal(
      said('device-token-1 connection-token-one connection-token-two'),
      '[redacted] connection-token-one [redacted]',
    );
    wired.hub.stop();
    assert.equal(wired.hub.status, 'stopped');
  });

  it('hands a properties Notify to the agent where a host plugs in the receiver, and not otherwise', async () => {
    for (const plugged of [true, false]) {
      const h = harness();
      const merged: Record<string, Value>[] = [];
      const agent = {
        device: { uid: 'uid-1' },
        applyDesired: async (): Promise<void> => undefined,
        resyncDesired: async (): Promise<void> => undefined,
        updateProperties: (values: Readonly<Record<string, Value>>): void => void merged.push({ ...values }),
      };
      const wired = startAgentHub({
        agent,
        baseUrl: 'http://127.0.0.1:8080',
        token: 't',
        http: h.http,
        sockets: h.sockets,
        clock: h.clock,
        logger: new RedactingLogger(h.logger),
        ...(plugged && { properties: notifiedProperties(agent) }),
      });
      await settle();
      h.sockets.last.accept();
      await settle();
      h.sockets.last.receiveRecords({
        type: 1,
        target: 'Notify',
        arguments: [{ type: 'properties', entity: 'uid-1', values: { interval: 5 } }],
      });
      assert.deepEqual(merged, plugged ? [{ interval: 5 }] : []);
      wired.hub.stop();
    }
  });
});
