/** `--config-refresh SECONDS` / DDS_CONFIG_REFRESH: the period of the configuration re-read on Node. */
import assert from 'node:assert/strict';
import { isAgentError } from '../../src/errors.js';
import { parseOptions } from '../../targets/node/options.js';
import { configRefreshMs } from '../../targets/node/runtime.js';

const base = ['--service', 'http://127.0.0.1:8080', '--device', 'demo-001', '--token', 't'];
const noFile = (): string => {
  throw new Error('no such file');
};

describe('node options: --config-refresh', () => {
  it('takes seconds from the flag or the environment (the flag wins); absent means the agent default', () => {
    assert.equal(configRefreshMs(parseOptions(base, {}, noFile)), undefined);
    assert.equal(configRefreshMs(parseOptions([...base, '--config-refresh', '90'], {}, noFile)), 90000);
    assert.equal(configRefreshMs(parseOptions(base, { DDS_CONFIG_REFRESH: '2.5' }, noFile)), 2500);
    const both = parseOptions([...base, '--config-refresh=0'], { DDS_CONFIG_REFRESH: '600' }, noFile);
    assert.equal(configRefreshMs(both), 0, '0 turns the periodic refresh off');
  });

  it('refuses what is not a number of seconds >= 0', () => {
    for (const bad of ['-1', 'soon', '', '5m']) {
      assert.throws(
        () => configRefreshMs(parseOptions([...base, `--config-refresh=${bad}`], {}, noFile)),
        (e: unknown) => isAgentError(e, 'config.invalid') && e.message.includes('--config-refresh'),
        bad,
      );
    }
  });
});
