/**
 * The hub wiring both targets share (src/signalr/agent-hub.ts): every secret a
 * negotiate hands out (connection tokens, a rotated access token) is redacted
 * while it is current and forgotten when it is replaced; the configured token
 * stays redacted; the link resyncs desired values on connect.
 */
import { RedactingLogger } from '../../../src/log/redact.js';
import { startAgentHub } from '../../../src/signalr/agent-hub.js';
import type { DesiredRecord } from '../../../src/agent/desired.js';
import { settle } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';
import { harness, json } from './harness.js';

describe('signalr: the shared agent hub wiring', () => {
  it('redacts connection tokens and rotated access tokens, forgetting each when it is replaced', async () => {
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
    const redirect = (token: string) => json(200, { url: 'http://127.0.0.1:8080/relay', accessToken: token });
    const negotiated = (token: string) => json(200, { negotiateVersion: 1, connectionId: 'c', connectionToken: token });
    h.http.script.push(redirect('rotated-token-one'), negotiated('connection-token-one'));
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
    h.sockets.last.accept();
    await settle();
    assert.equal(wired.hub.status, 'connected');
    assert.equal(resyncs, 1);
    const said = (text: string): string => {
      logger.log('info', text);
      return h.logger.lines.at(-1)!.message;
    };
    assert.equal(said('device-token-1 rotated-token-one connection-token-one'), '[redacted] [redacted] [redacted]');
    h.http.script.push(redirect('rotated-token-two'), negotiated('connection-token-two'));
    h.sockets.last.drop();
    await h.clock.advanceAsync(1000);
    await settle();
    h.sockets.last.accept();
    await settle();
    assert.equal(resyncs, 2);
    assert.equal(
      said('device-token-1 rotated-token-one connection-token-one rotated-token-two connection-token-two'),
      '[redacted] rotated-token-one connection-token-one [redacted] [redacted]',
    );
    wired.stop();
    assert.equal(wired.hub.status, 'stopped');
  });
});
