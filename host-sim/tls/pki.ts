/**
 * Certificates for tests and `npm start -- --tls` (docs/tls.md), made with the
 * `openssl` command line (nothing is downloaded): a self-signed CA and a
 * server certificate it signs, for the host names and IP addresses given.
 * EC P-256 keys, so a whole set takes a few tens of milliseconds. Everything
 * is PEM text; the temporary directory is removed before returning.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError } from '../../src/errors.js';

export interface TestPki {
  /** The CA certificate the client trusts (PEM). */
  caPem: string;
  /** The server's certificate, signed by the CA (PEM). */
  certPem: string;
  /** The server's private key (PEM). */
  keyPem: string;
}

export interface PkiOptions {
  /** DNS names in the server certificate's subjectAltName. Default ['localhost']. */
  dnsNames?: readonly string[];
  /** IP addresses in the subjectAltName. Default ['127.0.0.1', '::1']. */
  ipAddresses?: readonly string[];
  /** Common name of the CA (shown in verification errors). Default 'DDS local test CA'. */
  caName?: string;
  /** Validity, days. Default 30. */
  days?: number;
}

/** True when the `openssl` command line is on PATH. */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Generates a CA and a server certificate; throws AgentError `unsupported` without `openssl`. */
export function generatePki(options: PkiOptions = {}): TestPki {
  if (!hasOpenssl()) throw new AgentError('unsupported', 'openssl is not on PATH; cannot generate certificates');
  const dir = mkdtempSync(join(tmpdir(), 'dds-pki-'));
  const at = (name: string): string => join(dir, name);
  const run = (args: string[]): void => {
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const days = String(options.days ?? 30);
  const dns = options.dnsNames ?? ['localhost'];
  const ips = options.ipAddresses ?? ['127.0.0.1', '::1'];
  const san = [...dns.map((d) => `DNS:${d}`), ...ips.map((ip) => `IP:${ip}`)].join(',');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    writeFileSync(
      at('ca.ext'),
      // authorityKeyIdentifier too: Moddable's verifier looks the chain's last certificate up by it (docs/tls.md).
      'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n' +
        'authorityKeyIdentifier=keyid:always\n',
    );
    writeFileSync(
      at('server.ext'),
      `basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n` +
        `authorityKeyIdentifier=keyid\n${san === '' ? '' : `subjectAltName=${san}\n`}`,
    );
    const caName = options.caName ?? 'DDS local test CA';
    run(['req', '-new', ...ec, '-keyout', at('ca.key'), '-out', at('ca.csr'), '-subj', `/CN=${caName}`]);
    run([
      ...['x509', '-req', '-in', at('ca.csr'), '-signkey', at('ca.key'), '-days', days],
      ...['-extfile', at('ca.ext'), '-out', at('ca.pem')],
    ]);
    run([
      'req',
      '-new',
      ...ec,
      '-keyout',
      at('server.key'),
      '-out',
      at('server.csr'),
      '-subj',
      `/CN=${dns[0] ?? 'dds'}`,
    ]);
    run([
      ...['x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key')],
      ...['-set_serial', String(Date.now()), '-days', days, '-extfile', at('server.ext'), '-out', at('server.pem')],
    ]);
    return {
      caPem: readFileSync(at('ca.pem'), 'utf8'),
      certPem: readFileSync(at('server.pem'), 'utf8'),
      keyPem: readFileSync(at('server.key'), 'utf8'),
    };
  } catch (e) {
    const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim() ?? '';
    throw new AgentError('internal', `openssl failed: ${stderr !== '' ? stderr : String(e)}`, { cause: e });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
