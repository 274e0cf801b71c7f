/**
 * The configuration follows the service: periodic (jittered) refresh, changed
 * channels take effect, unchanged ones keep their transmit state, and a batch
 * refused because it names a channel that is gone is split, not dropped whole.
 */
import { assert } from '../../support/assert.js';
import { ch, PrettyHttp, world } from './harness.js';

const door = ch('door', 'digitalInput', { pin: 4, transmitEvents: [{ type: 'change' }] });
const temp = ch('temp', 'analogInput', { pin: 34, scanInterval: 500 });
const list = (...channels: unknown[]): unknown => ({ buses: [], channels });

describe('agent: the configuration follows the service', () => {
  it('re-reads the configuration within one refresh period, jittered into [0.75, 1] of it', async () => {
    const w = world({ channels: [door], agent: { configRefreshMs: 60000, random: () => 0.5 } });
    await w.agent.start();
    const reads = (): number => w.http.requests.filter((r) => r.url.includes('/channels/list')).length;
    assert.equal(reads(), 1);
    await w.clock.advanceAsync(52000);
    assert.equal(reads(), 1, 'not before 0.75 + 0.25 x 0.5 of the period (52.5 s)');
    w.http.channels = list(door, temp);
    await w.clock.advanceAsync(1000);
    assert.equal(reads(), 2);
    assert.deepEqual(w.agent.channelKeys.sort(), ['door', 'temp'], 'the added channel runs');
    await w.clock.advanceAsync(52500);
    assert.equal(reads(), 3, 'and again one jittered period later');
    w.agent.stop();
  });

  it('keeps an unchanged channel running with its transmit state; restarts a changed one; stops a removed one', async () => {
    const reports: string[] = [];
    const w = world({ channels: [door, temp], agent: { configRefreshMs: 0, onReport: (key) => reports.push(key) } });
    const count = (key: string): number => reports.filter((k) => k === key).length;
    w.pins.analog.set(34, 100);
    await w.agent.start();
    await w.clock.advanceAsync(1100);
    assert.equal(count('door'), 1);
    assert.equal(count('temp'), 3, 'temp every 500 ms');
    // temp's scan interval changes; door stays as it was.
    w.http.channels = list(door, { ...temp, scanInterval: 250 });
    await w.agent.reloadConfig();
    await w.clock.advanceAsync(1100);
    assert.equal(count('door'), 1, 'unchanged: no new first sample, no restart');
    assert.equal(count('temp'), 3 + 5, 'changed: restarted at once, every 250 ms now');
    assert.ok(w.pins.open.has(4));
    // temp is removed.
    w.http.channels = list(door);
    await w.agent.reloadConfig();
    await w.clock.advanceAsync(2100);
    assert.equal(count('temp'), 3 + 5, 'removed: no more records');
    assert.equal(w.http.statesOf('door.reported').length, 1);
    assert.ok(!w.pins.open.has(34), 'its pin is closed');
    assert.deepEqual(w.agent.channelKeys, ['door']);
    assert.equal(w.logger.find('info', 'channels configured').at(-1)?.fields?.['kept'], 1);
    w.logger.assertNoErrors();
    w.agent.stop();
  });

  it('keeps a channel running when only its uid or display fields change; a bad display field still rejects it', async () => {
    const reports: string[] = [];
    const w = world({ channels: [temp], agent: { configRefreshMs: 0, onReport: (key) => reports.push(key) } });
    w.pins.analog.set(34, 100);
    await w.agent.start();
    await w.clock.advanceAsync(1100);
    assert.equal(reports.length, 3, 'temp every 500 ms');
    const relabelled = { ...temp, uid: 'another', name: 'Tank', group: 'g', order: 2, unit: 'V', visible: false };
    w.http.channels = list({ ...relabelled, aggregated: 'mean', aggregatedLast: 'derivative.1s' });
    await w.agent.reloadConfig();
    await w.clock.advanceAsync(1000);
    assert.equal(reports.length, 3 + 2, 'no restart: the next scan on the same grid, no new first sample');
    assert.equal(w.logger.find('info', 'channels configured').at(-1)?.fields?.['kept'], 1);
    w.http.channels = list({ ...relabelled, order: 'first' });
    await w.agent.reloadConfig();
    await w.clock.advanceAsync(1100);
    assert.deepEqual(w.agent.channelKeys, [], 'rejected: its sampling stops');
    assert.equal(w.http.statesOf('temp.reported').at(-1)?.error, -22, 'reported as EINVAL');
    w.agent.stop();
  });

  it('splits a batch refused for a removed channel: the others are delivered, the removed counted once per channel', async () => {
    const w = world({ channels: [door, temp], agent: { configRefreshMs: 0 } });
    w.http.refuseUnknown = true;
    await w.agent.start();
    await w.clock.advanceAsync(300);
    w.pins.digital.set(4, true);
    await w.clock.advanceAsync(300);
    // The service drops temp while the open batch still holds temp records.
    w.http.channels = list(door);
    await w.clock.advanceAsync(600); // the batch closes at 1 s, is refused, split and sent again
    assert.equal(w.http.refused, 1);
    assert.deepEqual(
      w.http.statesOf('door.reported').map((s) => s.value),
      [false, true],
      'every door record delivered',
    );
    assert.equal(w.http.statesOf('temp.reported').length, 0);
    assert.equal(w.agent.counters.rejected, 2, 'temp at 0 and 500 ms');
    assert.equal(w.agent.counters.queued, 0);
    const warned = w.logger.find('warn', 'channel gone');
    assert.equal(warned.length, 1, 'one line for the channel, not one per record');
    assert.deepEqual(warned[0]?.fields, { key: 'temp', records: 2 });
    assert.deepEqual(w.agent.channelKeys, ['door'], 'the refusal re-read the configuration');
    w.logger.assertNoErrors();
    w.agent.stop();
  });

  it('drops a batch still refused with nothing to split off as malformed, and keeps running', async () => {
    const w = world({ channels: [door], agent: { configRefreshMs: 0 } });
    w.http.writeStatus = 422;
    await w.agent.start();
    await w.clock.advanceAsync(1100);
    assert.equal(w.agent.counters.rejected, 1);
    assert.equal(w.agent.counters.queued, 0);
    assert.equal(w.logger.find('error', 'batch refused, dropped').length, 1);
    w.http.writeStatus = undefined;
    w.pins.digital.set(4, true);
    await w.clock.advanceAsync(1200);
    assert.deepEqual(
      w.http.statesOf('door.reported').map((s) => s.value),
      [true],
    );
    w.agent.stop();
  });

  it('keeps a refused batch while the configuration cannot be read, then splits it', async () => {
    const w = world({ channels: [door, temp], agent: { configRefreshMs: 0 } });
    w.http.refuseUnknown = true;
    await w.agent.start();
    w.http.channels = list(door);
    const realRequest = w.http.request.bind(w.http);
    let configDown = true;
    w.http.request = (request) =>
      configDown && request.url.includes('/channels/list')
        ? Promise.resolve({ status: 503, headers: {}, body: '' })
        : realRequest(request);
    await w.clock.advanceAsync(1100);
    assert.equal(w.http.refused, 1);
    assert.equal(w.agent.counters.rejected, 0, 'nothing dropped while the configuration is unknown');
    assert.ok(w.agent.counters.queued >= 3, 'door and temp records kept');
    assert.equal(w.logger.find('warn', 'config unreadable').length, 1);
    configDown = false;
    await w.clock.advanceAsync(1100); // retry at +1000 (fixedRetry): refused, split, delivered
    assert.equal(w.agent.counters.queued, 0);
    assert.equal(w.http.statesOf('door.reported').length, 1);
    assert.equal(w.http.statesOf('temp.reported').length, 0);
    const c = w.agent.counters;
    assert.equal(c.rejected, c.reported - 1, 'every temp record counted as rejected, the door record sent');
    assert.equal(c.sent, 1);
    w.agent.stop();
  });

  it('caches the answer as it came, and an unchanged one not again (test/node/config-unparsed: nor parsed)', async () => {
    const http = new PrettyHttp();
    const w = world({ http, channels: [door, temp], agent: { configRefreshMs: 0 } });
    const cached: string[] = [];
    const set = w.store.set.bind(w.store);
    w.store.set = (key, value) => {
      if (key === 'agent/channels') cached.push(value);
      set(key, value);
    };
    await w.agent.start();
    assert.deepEqual(cached, [JSON.stringify(http.channels, null, 2)], 'the text as it came, once');
    await w.agent.reloadConfig();
    assert.equal(cached.length, 1, 'nor cached again');
    http.channels = list(door);
    await w.agent.reloadConfig();
    assert.deepEqual(w.agent.channelKeys, ['door'], 'a changed one is applied');
    assert.equal(cached.at(-1), JSON.stringify(list(door), null, 2), 'and cached as it came');
    w.agent.stop();
  });

  it('caches a changed configuration once it runs (the channels it replaced are gone by then)', async () => {
    const w = world({ channels: [door], agent: { configRefreshMs: 0 } });
    const running: string[][] = [];
    const set = w.store.set.bind(w.store);
    w.store.set = (key, value) => {
      if (key === 'agent/channels') running.push(w.agent.channelKeys.sort());
      set(key, value);
    };
    await w.agent.start();
    w.http.channels = list(temp);
    await w.agent.reloadConfig();
    assert.deepEqual(running, [['door'], ['temp']], 'each cached with its own channels running, the old stopped');
    w.agent.stop();
  });

  it('re-reads the configuration when the hub reconnects', async () => {
    const w = world({ channels: [door], agent: { configRefreshMs: 0 } });
    await w.agent.start();
    w.http.channels = list(door, temp);
    w.agent.hubReconnected();
    await w.clock.advanceAsync(0);
    assert.deepEqual(w.agent.channelKeys.sort(), ['door', 'temp']);
    w.http.offline = true;
    w.agent.hubReconnected();
    await w.clock.advanceAsync(0);
    assert.equal(w.logger.find('warn', 'config: not read (hub reconnected)').length, 1);
    w.http.offline = false;
    w.http.channels = list(door);
    await w.clock.advanceAsync(1000); // retried with the agent's backoff
    assert.deepEqual(w.agent.channelKeys, ['door']);
    w.agent.stop();
  });
});
