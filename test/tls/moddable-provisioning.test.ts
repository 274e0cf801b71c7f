/**
 * Provisioning a board (docs/tls.md): the service URL, device key, token and CA
 * certificate name come from the manifest's `config`, overridden by preferences
 * in domain `config` without rebuilding; bad values stop the boot with
 * `config.invalid` naming the entry.
 */
import assert from 'node:assert/strict';
import { isAgentError } from '../../src/errors.js';
import { readBoardConfig } from '../../targets/moddable/config.js';

const manifest = { serviceUrl: 'http://192.168.1.10:8080', deviceKey: 'demo-001', token: 'device-token-demo-001' };

describe('tls: provisioning a Moddable board', () => {
  it('preferences set the service URL (https), the device key, the token and the CA resource', () => {
    const prefs: Record<string, string> = {
      serviceUrl: 'https://dds.example.com/',
      deviceKey: 'board-17',
      token: 'tok-provisioned-123456',
      caCert: 'dds-ca.der',
    };
    const board = readBoardConfig(manifest, (name) => prefs[name]);
    assert.equal(board.serviceUrl, 'https://dds.example.com');
    assert.equal(board.deviceKey, 'board-17');
    assert.equal(board.token, 'tok-provisioned-123456');
    assert.equal(board.caCert, 'dds-ca.der');
    assert.equal(readBoardConfig(manifest, () => undefined).caCert, undefined, 'no CA: the SDK store');
  });

  for (const [name, value, message] of [
    ['serviceUrl', 'dds.example.com', /serviceUrl: expected http/],
    ['serviceUrl', 'ftp://dds.example.com', /serviceUrl: expected http/],
    ['serviceUrl', 'https://', /serviceUrl: expected http/],
    ['caCert', 'ca.pem', /caCert: expected a DER resource name/],
    ['caCert', '../ca.der', /caCert: expected a DER resource name/],
  ] as const) {
    it(`refuses ${name} = "${value}"`, () => {
      assert.throws(
        () => readBoardConfig(manifest, (n) => (n === name ? value : undefined)),
        (e) => isAgentError(e, 'config.invalid') && message.test(e.message),
      );
    });
  }

  it('refuses a missing token', () => {
    assert.throws(
      () => readBoardConfig({ ...manifest, token: undefined }, () => undefined),
      (e) => isAgentError(e, 'config.invalid') && /token/.test(e.message),
    );
  });
});
