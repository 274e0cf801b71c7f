/**
 * What the heap runs (heap-run.ts) and the simulator tests beside them serve: the test CA and server
 * certificate (made once per folder), and the demo fixture with `n` analog inputs reporting about once a
 * second. Node only.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatePki } from '../../host-sim/tls/pki.js';
import { root } from './mcsim.js';

export type Pki = { certPem: string; keyPem: string; caPem: string };

/** The test CA and server certificate, made once and kept in `dir` (the CA is a resource in the image). */
export function pki(dir: string): Pki {
  const file = join(dir, 'pki.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Pki;
  const made = generatePki({ ipAddresses: ['127.0.0.1'], days: 3650 });
  const kept = { certPem: made.certPem, keyPem: made.keyPem, caPem: made.caPem };
  writeFileSync(join(dir, 'ca.pem'), kept.caPem);
  execFileSync('openssl', ['x509', '-in', join(dir, 'ca.pem'), '-outform', 'der', '-out', join(dir, 'dds-ca.der')]);
  writeFileSync(file, JSON.stringify(kept));
  return kept;
}

/**
 * `n` analog inputs that report about once a second, as the service's fixture holds them; `minimalChange` of
 * their delta event (a configuration changed in every channel: another value).
 */
export const analogChannels = (n: number, minimalChange = 0.5): unknown[] =>
  Array.from({ length: n }, (_, i) => ({
    uid: `8b3c4d5e-2f30-4b6c-9d7e-${String(i + 1).padStart(12, '0')}`,
    key: `a${i}`,
    name: `Analog ${i}`,
    type: 'analogInput',
    pin: 32 + (i % 32),
    scaleGain: 0.1,
    scaleOffset: -40,
    scanInterval: 1000,
    aggregated: 'last',
    aggregatedLast: 'last',
    order: i + 1,
    transmitEvents: [{ type: 'delta', minimalChange }],
  }));

/** The demo fixture with demo-001's product holding `n` analog inputs (`analogChannels`), in `dir`. */
export function fixture(dir: string, n: number, minimalChange?: number): string {
  const demo = JSON.parse(readFileSync(join(root, 'host-sim', 'service', 'fixtures', 'demo.json'), 'utf8')) as {
    products: Array<{ channels: unknown[]; buses: unknown[] }>;
  };
  const product = demo.products[0]!;
  product.buses = [];
  product.channels = analogChannels(n, minimalChange);
  const file = join(dir, `fixture-${n}${minimalChange === undefined ? '' : `-${minimalChange}`}.json`);
  writeFileSync(file, JSON.stringify(demo));
  return file;
}
