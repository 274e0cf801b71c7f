/**
 * The service refuses the device (issue 29): a wrong token (401, 403) or a
 * device key the service does not know (404) when the configuration is read
 * is one `error` line naming the cause and the fix, once, and `onRefused`
 * once; the agent keeps retrying with the long wait (`authRetryMs`), never
 * giving up, and starts as soon as the service accepts it. A passing outage
 * (no answer) keeps its warning and short backoff.
 */
import { assert } from '../../support/assert.js';
import { ch, world } from './harness.js';

const temp = ch('temp', 'analogInput', { pin: 34, scanInterval: 500 });

function refusedWorld(status: number) {
  const refusals: number[] = [];
  const w = world({
    channels: [temp],
    agent: { authRetryMs: 60000, configRefreshMs: 0, onRefused: (s) => refusals.push(s) },
  });
  w.http.readStatus = status;
  const reads = (): number => w.http.requests.filter((r) => r.url.includes('/channels/list')).length;
  return { w, refusals, reads };
}

describe('agent: the service refuses the token or the device', () => {
  it('401: one error line with the cause and the fix, onRefused once, retries every authRetryMs, never gives up', async () => {
    const { w, refusals, reads } = refusedWorld(401);
    await w.agent.start();
    const lines = w.logger.find('error', 'config: token refused; set the right token and restart');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.fields?.['status'], 401);
    assert.match(String(lines[0]!.fields?.['reason']), /401 fake 401/);
    assert.deepEqual(refusals, [401]);
    await w.clock.advanceAsync(59999);
    assert.equal(reads(), 1, 'not the short backoff: the long wait');
    await w.clock.advanceAsync(1);
    assert.equal(reads(), 2);
    await w.clock.advanceAsync(10 * 60000);
    assert.equal(reads(), 12, 'still trying after ten long waits (a board never gives up)');
    assert.equal(w.logger.find('error').length, 1, 'said once, not once per try');
    assert.equal(w.logger.find('warn', 'config: not read').length, 0);
    assert.deepEqual(refusals, [401]);
    // The token is fixed on the service's side: the next try starts the channels.
    w.http.readStatus = undefined;
    await w.clock.advanceAsync(60000);
    assert.deepEqual(w.agent.channelKeys, ['temp']);
    w.agent.stop();
  });

  it('404: the device key is unknown to the service, said once with the fix', async () => {
    const { w, refusals } = refusedWorld(404);
    await w.agent.start();
    await w.clock.advanceAsync(3 * 60000);
    const lines = w.logger.find('error', 'config: device unknown; check the device key and restart');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.fields?.['status'], 404);
    assert.deepEqual(refusals, [404]);
    w.agent.stop();
  });

  it('403 counts as refused too; refused again after a good read, it is said again', async () => {
    const { w, refusals, reads } = refusedWorld(403);
    await w.agent.start();
    w.http.readStatus = undefined;
    await w.clock.advanceAsync(60000);
    assert.equal(reads(), 2);
    w.http.readStatus = 401;
    await w.agent.reloadConfig().catch(() => undefined);
    w.agent.hubReconnected();
    await w.clock.advanceAsync(0);
    assert.deepEqual(refusals, [403, 401]);
    // 403: a device token naming a device not its own, known or not (decisions 10): the key is what to check.
    assert.equal(w.logger.find('error', 'config: device unknown').length, 1);
    assert.equal(w.logger.find('error', 'config: token refused').length, 1);
    w.agent.stop();
  });

  it('no answer is an outage, not a refusal: a warning, the short backoff, no onRefused', async () => {
    const { w, refusals, reads } = refusedWorld(401);
    w.http.readStatus = undefined;
    w.http.offline = true;
    await w.agent.start();
    assert.equal(w.logger.find('warn', 'config: not read (start)').length, 1);
    await w.clock.advanceAsync(1000);
    assert.equal(reads(), 2, 'the agent policy (1 s) retries, not authRetryMs');
    assert.deepEqual(refusals, []);
    w.logger.assertNoErrors();
    w.agent.stop();
  });
});
