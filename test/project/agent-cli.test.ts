/**
 * `npm run agent` and `npm run device` against the local service, as child
 * processes (issue 29): a refused token or an unknown device is one `error`
 * line naming the cause and the fix, and `--exit-on-auth-failure` ends the run
 * with exit 1; Ctrl-C (SIGINT) and SIGTERM deliver the queue before the stop,
 * and without `--store` say how many records are lost. Nothing here sleeps:
 * each step waits for the line the child writes.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { demoFixturePath, loadFixture } from '../../host-sim/service/fixture.js';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { runBin, type Run } from './support/commands.js';

const token = 'device-token-demo-001';
const simulated = ['--gnss', 'simulated', '--bus', 'rs485=sim', '--bus', 'can0=j1939-sim', '--no-hub'];

/** Runs a bin, calling `step` on each new stderr text until it returns true once. */
function runUntil(
  bin: string,
  args: string[],
  env: Record<string, string>,
  step: (stderr: string, child: ChildProcess) => boolean,
): Promise<Run> {
  let done = false;
  return runBin(bin, args, {
    env,
    onStderr: (text, child) => {
      if (!done) done = step(text, child);
    },
  });
}

const errorLines = (stderr: string): string[] => stderr.split('\n').filter((l) => / error /.test(l));

describe('the agent commands against the local service', function () {
  this.timeout(60000);
  let service: RunningService;

  before(async () => {
    service = await startService({ fixture: loadFixture(demoFixturePath), port: 0 });
  });
  after(() => service.close());

  it('a wrong token: one error line with the cause and the fix; --exit-on-auth-failure exits 1', async () => {
    const run = await runBin(
      'dds-agent',
      ['--service', service.url, '--device', 'demo-001', '--exit-on-auth-failure'],
      {
        env: { DDS_TOKEN: 'not-a-token' },
      },
    );
    assert.equal(run.code, 1, run.stderr);
    const errors = errorLines(run.stderr);
    assert.equal(errors.length, 2, run.stderr);
    assert.match(
      errors[0]!,
      /error config: token refused; set the right token and restart status=401 reason=".*401 unknown bearer token"/,
    );
    assert.match(errors[1]!, /error stopped: the service refused this device \(--exit-on-auth-failure\) status=401$/);
    assert.doesNotMatch(run.stderr, /not-a-token/, 'the token is never logged');
  });

  it('an unknown device: the error line names the device key; without the flag the agent keeps running', async () => {
    const run = await runUntil(
      'dds-agent',
      ['--service', service.url, '--device', 'no-such-device', '--no-hub'],
      { DDS_TOKEN: token },
      (stderr, child) => /device unknown/.test(stderr) && child.kill('SIGTERM'),
    );
    assert.equal(run.code, 0, 'stopped by the signal, not by the refusal');
    const errors = errorLines(run.stderr);
    assert.equal(errors.length, 1, run.stderr);
    assert.match(errors[0]!, /error config: device unknown; check the device key and restart status=403 reason="/);
  });

  it('Ctrl-C delivers what is queued before it stops: nothing lost', async () => {
    const started = Date.now() / 1000;
    let configured = false;
    const run = await runUntil(
      'dds-device',
      ['--service', service.url, '--device', 'demo-001', ...simulated],
      { DDS_TOKEN: token },
      (stderr, child) => {
        // A second after the channels start, records are in the open batches: interrupt then.
        if (!configured && /channels configured/.test(stderr)) {
          configured = true;
          return false;
        }
        return configured && /gnss gps: fix/.test(stderr) && child.kill('SIGINT');
      },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, / info {2}stopped queued=0\n$/);
    const url = `${service.url}/api/v1/states/read/last?device=demo-001&channels=*.reported`;
    const last = (await (await fetch(url, { headers: { authorization: 'Bearer admin-token-demo' } })).json()) as Array<{
      timestamp: number;
    }>;
    assert.ok(Array.isArray(last) && last.some((r) => r.timestamp >= started - 1), JSON.stringify(last).slice(0, 300));
  });

  it('Ctrl-C with the service gone and no --store: the records lost are counted in a warning', async () => {
    const gone = await startService({ fixture: loadFixture(demoFixturePath), port: 0 });
    let closing = false;
    const run = await runUntil(
      'dds-device',
      ['--service', gone.url, '--device', 'demo-001', ...simulated],
      { DDS_TOKEN: token },
      (stderr, child) => {
        if (!closing && /channels configured/.test(stderr)) {
          closing = true;
          void gone.close();
          return false;
        }
        // Delivery failed once: the outbox holds records the service will not get before the stop.
        return /sender: delivery failed/.test(stderr) && child.kill('SIGINT');
      },
    );
    assert.equal(run.code, 0, run.stderr);
    const last = run.stderr.trimEnd().split('\n').at(-1)!;
    const lost = / warn {2}stopped; records lost, no --store to keep them lost=(\d+)$/.exec(last);
    assert.ok(lost !== null, last);
    assert.ok(Number(lost[1]) > 0);
  });
});
