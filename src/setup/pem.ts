/**
 * PEM to DER: the bytes of the first `CERTIFICATE` block of a PEM text (a
 * provisioned `caCert`), which the SDK's SecureSocket takes as its
 * `certificate`. A small base64 decoder: XS has no `atob` and the firmware
 * links no base64 module.
 */
import { AgentError } from '../errors.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The DER bytes of the first certificate; AgentError `config.invalid` when there is none or it is not base64. */
export function pemToDer(pem: string): Uint8Array {
  const match = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem);
  const text = (match?.[1] ?? '').replace(/\s+/g, '');
  if (text === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0)
    throw new AgentError('config.invalid', 'caCert: expected a base64 PEM certificate');
  const body = text.replace(/=+$/, '');
  const out = new Uint8Array((body.length * 3) >> 2);
  let bits = 0;
  let value = 0;
  let at = 0;
  for (let i = 0; i < body.length; i++) {
    value = (value << 6) | ALPHABET.indexOf(body[i] as string);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  return out;
}
