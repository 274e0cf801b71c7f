/**
 * The `secure` dictionary of every SecureSocket (docs/tls.md): TLS 1.2 at
 * least, records of at most `MAX_RECORD` (2,048 B) asked of the server (the HTTP
 * connection writes none larger, http.ts; the hub's writes are small), and the CA certificate the service's chain must end in when the board
 * has one: a DER resource named by `caCert` (built into the image), or the PEM
 * text that provisioning stored (decisions 11), decoded by `pemToDer`, which
 * only the provisionable firmware links (setup-mode.ts); else the SDK's store
 * (`ca*.der` resources).
 */
import Resource from 'Resource';
import { AgentError } from '../../src/errors.js';
import { MAX_RECORD } from './http.js';

export function secureOptions(
  caCert: string | undefined,
  pemToDer?: (pem: string) => Uint8Array,
): Record<string, unknown> {
  const secure: Record<string, unknown> = { protocolVersion: 0x303, tls_max_fragment_length: MAX_RECORD };
  if (caCert === undefined) return secure;
  if (!caCert.includes('-----BEGIN')) secure.certificate = new Resource(caCert);
  else if (pemToDer !== undefined) secure.certificate = pemToDer(caCert).slice().buffer;
  else
    throw new AgentError(
      'config.invalid',
      'board config: caCert: a PEM certificate needs the firmware with setup mode',
    );
  return secure;
}
