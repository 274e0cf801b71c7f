/**
 * The Kubernetes indexed Job example of docs/fleet.md stays consistent with
 * the fleet: an Indexed Job whose completions equal the M of its `--shard
 * "$JOB_COMPLETION_INDEX/M"`, running the built fleet CLI with a service and a
 * token file, every option one the CLI knows.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { assert } from '../support/assert.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('fleet: the Kubernetes indexed Job example', () => {
  it('is an Indexed Job whose completions match its shard count and whose command is the fleet CLI', () => {
    const job = parse(readFileSync(`${root}docs/fleet-job.yaml`, 'utf8')) as {
      kind: string;
      spec: {
        completionMode: string;
        completions: number;
        parallelism: number;
        template: { spec: { containers: { args: string[] }[] } };
      };
    };
    assert.equal(job.kind, 'Job');
    assert.equal(job.spec.completionMode, 'Indexed');
    const command = job.spec.template.spec.containers[0]!.args.join(' ');
    const shard = /--shard "\$JOB_COMPLETION_INDEX\/(\d+)"/.exec(command);
    assert.ok(shard !== null, 'shard taken from JOB_COMPLETION_INDEX');
    assert.equal(job.spec.completions, Number(shard[1]), 'completions = M');
    assert.ok(job.spec.parallelism <= job.spec.completions);
    const script = /node (\S+)/.exec(command)?.[1];
    assert.equal(script, 'build/host-sim/fleet/cli.js');
    assert.ok(existsSync(`${root}${script}`), 'the CLI is built there');
    const cli = readFileSync(`${root}host-sim/fleet/cli.ts`, 'utf8');
    for (const [, option] of command.matchAll(/--([a-z-]+)/g)) {
      assert.ok(cli.includes(`'${option}'`) || cli.includes(`${option}: {`), `--${option} is a fleet option`);
    }
    assert.match(command, /--service /);
    assert.match(command, /--tokens /);
  });
});
