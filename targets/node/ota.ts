/**
 * The update ports on Node (src/ota/ports.ts) over node:crypto: the check of
 * an image as it is written (SHA-256, and a DER ECDSA P-256 signature with
 * SHA-256, as `openssl dgst -sha256 -sign` makes it, against a public key), and
 * the version the Node target reports as `fw-running` (the package's). The Node
 * target installs no images (it has no boot slots: an update is reported
 * `unsupported`); the checks serve the fleet simulator and the tests.
 */
import { createHash, createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AgentError } from '../../src/errors.js';
import type { ImageCheck } from '../../src/ota/ports.js';

/**
 * The public key of a configuration: a PEM public key, or the base64 of its DER
 * SubjectPublicKeyInfo (what a board's configuration holds). Throws
 * `config.invalid` for anything but an EC P-256 public key.
 */
export function updateKey(text: string): KeyObject {
  let key: KeyObject;
  try {
    key = text.includes('-----BEGIN')
      ? createPublicKey(text)
      : createPublicKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'spki' });
  } catch (e) {
    throw new AgentError('config.invalid', `update key: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new AgentError('config.invalid', 'update key: expected an EC P-256 public key');
  }
  return key;
}

/** A factory of image checks against `key` (ImagePorts.check). */
export function nodeImageCheck(key: KeyObject): () => ImageCheck {
  return () => {
    const hash = createHash('sha256');
    const verifier = createVerify('sha256');
    return {
      write(bytes) {
        hash.update(bytes);
        verifier.update(bytes);
      },
      sha256: () => new Uint8Array(hash.digest()),
      verify(signature) {
        try {
          return verifier.verify({ key, dsaEncoding: 'der' }, signature);
        } catch {
          return false;
        }
      },
    };
  };
}

/** The package's version (`fw-running` of the Node target). */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
  const version = (JSON.parse(text) as { version?: unknown }).version;
  return typeof version === 'string' ? version : '0.0.0';
}
