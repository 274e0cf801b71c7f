/** Options of the Node agent: flags, environment, config file, and clear errors. */
import assert from 'node:assert/strict';
import { parseOptions } from '../../targets/node/options.js';
import { isAgentError } from '../../src/errors.js';

const base = ['--service', 'http://127.0.0.1:8080/', '--device', 'demo-001', '--token', 'secret-token'];
const noFile = (): string => {
  throw new Error('no such file');
};

function failure(argv: string[], env: Record<string, string> = {}, readFile = noFile): string {
  try {
    parseOptions(argv, env, readFile);
  } catch (e) {
    assert.ok(isAgentError(e, 'config.invalid'));
    return e.message;
  }
  assert.fail('expected an error');
}

describe('node options', () => {
  it('reads flags, with defaults and the trailing slash removed', () => {
    const o = parseOptions([...base, '--store=agent-store'], {}, noFile);
    assert.equal(o.service, 'http://127.0.0.1:8080');
    assert.equal(o.device, 'demo-001');
    assert.equal(o.token, 'secret-token');
    assert.equal(o.store, 'agent-store');
    assert.equal(o.values['scenario'], undefined);
    assert.equal(o.tokenOnCommandLine, true);
    assert.equal(o.logLevel, 'info');
  });

  it('takes environment variables, flags winning over them, and a config file below both', () => {
    const file = JSON.stringify({
      service: 'http://file:1',
      device: 'from-file',
      token: 'file-token',
      logLevel: 'debug',
    });
    const o = parseOptions(['--device', 'from-flag'], { DDS_TOKEN: 'env-token', DDS_CONFIG: 'c.json' }, () => file);
    assert.equal(o.service, 'http://file:1');
    assert.equal(o.device, 'from-flag');
    assert.equal(o.token, 'env-token');
    assert.equal(o.logLevel, 'debug');
  });

  it('says what is missing, unknown or malformed', () => {
    assert.match(failure([]), /missing --service \(or DDS_SERVICE\), --device \(or DDS_DEVICE\), --token/);
    assert.match(failure([...base, '--gps', 'x']), /unknown option --gps/);
    assert.match(failure([...base, '--store']), /--store needs a value/);
    assert.match(failure([...base, '--device', 'again']), /--device given twice/);
    assert.match(failure(['--service', 'ftp://x', '--device', 'd', '--token', 't']), /http:\/\/ or https:\/\//);
    assert.match(failure([...base, '--log-level', 'loud']), /--log-level must be one of/);
    assert.match(failure([...base, '--config', 'missing.json']), /--config missing.json: no such file/);
    assert.match(failure([...base, 'stray']), /unexpected argument "stray"/);
    assert.match(failure([...base, '--scenario', 'x.json']), /unknown option --scenario/);
    // One line naming the problem, then a one-line hint: never the whole usage.
    assert.match(failure([]), /\n\(npm run agent -- --help lists the options\)$/);
    assert.equal(failure([]).split('\n').length, 2);
  });

  it('reads the token from --token-file or DDS_TOKEN_FILE, naming the path when it cannot', () => {
    const noToken = ['--service', 'http://127.0.0.1:8080', '--device', 'demo-001'];
    const files: Record<string, string> = { 't.txt': 'file-secret\nignored\n', 'empty.txt': '\n' };
    const read = (p: string): string => {
      const text = files[p];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return text;
    };
    const o = parseOptions([...noToken, '--token-file', 't.txt'], {}, read);
    assert.equal(o.token, 'file-secret');
    assert.equal(o.tokenOnCommandLine, false);
    assert.equal(parseOptions(noToken, { DDS_TOKEN_FILE: 't.txt' }, read).token, 'file-secret');
    assert.throws(
      () => parseOptions([...noToken, '--token-file', 'gone.txt'], {}, read),
      /--token-file gone.txt: ENOENT/,
    );
    assert.throws(
      () => parseOptions([...noToken, '--token-file', 'empty.txt'], {}, read),
      /--token-file empty.txt: .*empty/,
    );
  });

  it('--help needs nothing else', () => {
    assert.equal(parseOptions(['--help'], {}, noFile).help, true);
  });
});
