/** `--ca` / `DDS_CA`, `--insecure` / `DDS_INSECURE`, and the token found before parsing (docs/tls.md). */
import assert from 'node:assert/strict';
import { isAgentError } from '../../src/errors.js';
import { parseOptions, tokensInArgs } from '../../targets/node/options.js';
import { loadTlsOptions } from '../../targets/node/runtime.js';

const base = ['--service', 'https://dds.example.com', '--device', 'd1', '--token', 'tok-123456'];
const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

function tlsOf(argv: string[], env: Record<string, string> = {}, files: Record<string, string> = {}) {
  const readFile = (p: string): string => {
    const text = files[p];
    if (text === undefined) throw new Error(`ENOENT: ${p}`);
    return text;
  };
  return loadTlsOptions(parseOptions([...base, ...argv], env, readFile), readFile);
}

describe('tls: options', () => {
  it('takes the CA from --ca or DDS_CA (the flag wins), and checks that it holds a PEM certificate', () => {
    assert.deepEqual(tlsOf([]), {});
    assert.deepEqual(tlsOf(['--ca', 'a.pem'], {}, { 'a.pem': pem }), { ca: pem });
    assert.deepEqual(tlsOf([], { DDS_CA: 'b.pem' }, { 'b.pem': pem }), { ca: pem });
    assert.deepEqual(tlsOf(['--ca', 'a.pem'], { DDS_CA: 'b.pem' }, { 'a.pem': pem }), { ca: pem });
    assert.throws(
      () => tlsOf(['--ca', 'c.pem'], {}, { 'c.pem': 'hello' }),
      (e) => isAgentError(e, 'config.invalid') && /c\.pem: no PEM certificate/.test(e.message),
    );
    assert.throws(
      () => tlsOf(['--ca', 'missing.pem']),
      (e) => isAgentError(e, 'config.invalid') && /missing\.pem: ENOENT/.test(e.message),
    );
  });

  it('--insecure, or DDS_INSECURE other than empty, 0, false or no', () => {
    assert.deepEqual(tlsOf(['--insecure']), { insecure: true });
    assert.deepEqual(tlsOf([], { DDS_INSECURE: '1' }), { insecure: true });
    for (const off of ['0', 'false', 'no', 'FALSE']) assert.deepEqual(tlsOf([], { DDS_INSECURE: off }), {});
    assert.deepEqual(tlsOf(['--insecure', '--ca', 'a.pem'], {}, { 'a.pem': pem }), { ca: pem, insecure: true });
  });

  it('finds the token in --token X, --token=X and DDS_TOKEN before anything is parsed', () => {
    assert.deepEqual(tokensInArgs(['--token', 'a1', '--token=b2', 'junk'], { DDS_TOKEN: 'c3' }), ['c3', 'a1', 'b2']);
    assert.deepEqual(tokensInArgs(['--token'], {}), []);
  });

  it('a malformed --config file is reported by position, never by quoting it', () => {
    const secret = 'tok-in-the-file-987654';
    assert.throws(
      () => parseOptions(['--config', 'c.json'], {}, () => `{"token": "${secret}" "x": 1}`),
      (e) =>
        isAgentError(e, 'config.invalid') &&
        /not valid JSON \(position \d+\)/.test(e.message) &&
        !e.message.includes(secret),
    );
  });
});
