/** The settings of `POST /setup` and their public view (decisions 11). */
import { pemToDer } from '../../../src/setup/pem.js';
import { publicSettings, readSettings } from '../../../src/setup/settings.js';
import { assert } from '../../support/assert.js';

const good = { serviceUrl: 'https://dds.example.com/', deviceKey: 'demo-001', token: 'device-token-demo-001' };

describe('setup settings', () => {
  it('reads the required settings and trims the URL', () => {
    assert.deepEqual(readSettings(good), { ...good, serviceUrl: 'https://dds.example.com' });
    const full = { ...good, ssid: 'shop floor', password: 'wifi-pass-123', caCert: PEM };
    assert.deepEqual(readSettings(full), { ...full, serviceUrl: 'https://dds.example.com' });
  });

  it('names the first bad field, never showing a secret', () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /^settings: expected a JSON object/],
      [[1], /^settings: expected a JSON object, got "array"/],
      [{ ...good, serviceUrl: 'ftp://x' }, /^serviceUrl: expected http/],
      [{ ...good, deviceKey: undefined }, /^deviceKey: .*got missing/],
      [{ ...good, token: 'has space secret-1' }, /^token: .*got "string"$/],
      [{ ...good, token: 42 }, /^token: .*got "number"$/],
      [{ ...good, password: 'short' }, /^password: .*got "string"$/],
      [{ ...good, caCert: 'not a pem' }, /^caCert: expected a PEM/],
      [{ ...good, extra: 1 }, /^extra: expected no such setting/],
    ];
    for (const [body, message] of cases) {
      const e = assert.throws(() => readSettings(body), 'wire.invalid') as Error;
      assert.match(e.message, message);
      assert.ok(!e.message.includes('secret-1') && !e.message.includes('short'), e.message);
    }
  });

  it('shows a secret and the CA certificate only as "set"', () => {
    const stored: Record<string, unknown> = { ...good, password: 'wifi-pass-123', caCert: PEM, ssid: '' };
    assert.deepEqual(
      publicSettings((n) => stored[n]),
      {
        serviceUrl: good.serviceUrl,
        deviceKey: 'demo-001',
        token: 'set',
        password: 'set',
        caCert: 'set',
      },
    );
    assert.deepEqual(
      publicSettings(() => undefined),
      {},
    );
  });
});

describe('PEM to DER', () => {
  it('decodes the first certificate block', () => {
    assert.deepEqual([...pemToDer(PEM)], [0x30, 0x82, 0x01, 0x0a, 0xff]);
    assert.deepEqual([...pemToDer(PEM + PEM.replace('MIIBCv8=', 'AAAA'))], [0x30, 0x82, 0x01, 0x0a, 0xff]);
  });

  it('refuses what is not base64', () => {
    assert.throws(() => pemToDer('-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----'), 'config.invalid');
    assert.throws(() => pemToDer('nothing'), 'config.invalid');
  });
});

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBCv8=\n-----END CERTIFICATE-----\n';
