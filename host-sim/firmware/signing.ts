/**
 * Signing firmware images for over-the-air updates (decisions 12): an ECDSA
 * P-256 key pair, and an image's four desired properties: `fw-version`,
 * `fw-url`, `fw-sha256` (64 lowercase hex digits) and `fw-sig`, the base64 of
 * the DER ECDSA P-256 signature with SHA-256 of the image, the same bytes
 * `openssl dgst -sha256 -sign KEY -out SIG IMAGE` writes. The image is read
 * as a stream (never whole in memory). Key material is never part of an error
 * message or of anything returned for printing.
 */
import {
  createHash,
  createPublicKey,
  createPrivateKey,
  createSign,
  createVerify,
  generateKeyPairSync,
} from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** A failure the user can fix (a bad key file, an unreadable image): one line, exit 1. */
export class SigningError extends Error {
  override readonly name = 'SigningError';
}

/** The four desired firmware properties, as `properties/set` takes them in `values`. */
export interface FirmwareProperties {
  'fw-version': string;
  'fw-url': string;
  'fw-sha256': string;
  'fw-sig': string;
}

export interface KeyPairPem {
  /** PKCS#8 PEM: the secret. */
  privatePem: string;
  /** SPKI PEM: what a board's configuration holds. */
  publicPem: string;
}

/** A new ECDSA P-256 key pair. */
export function generateSigningKey(): KeyPairPem {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
  };
}

/** The SHA-256 of a public key's DER (SPKI), hex: names a key without showing it. */
export function keyFingerprint(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** A P-256 private key from PEM text (PKCS#8 or SEC1, as openssl writes either); `where` names the file. */
export function readPrivateKey(pem: string, where: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch (e) {
    const reason = /passphrase/i.test((e as Error).message)
      ? 'an encrypted key (give an unencrypted one)'
      : 'not a PEM private key';
    throw new SigningError(`${where}: ${reason}`);
  }
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType !== 'ec' || curve !== 'prime256v1') {
    throw new SigningError(
      `${where}: an ${key.asymmetricKeyType ?? 'unknown'} ${curve ?? ''} key, expected EC P-256 (prime256v1)`.replace(
        '  ',
        ' ',
      ),
    );
  }
  return key;
}

/** Reads `path` once, feeding the SHA-256 and the signer; the image's length, digest and DER signature. */
async function digestAndSign(path: string, key: KeyObject): Promise<{ bytes: number; sha256: string; der: Buffer }> {
  const hash = createHash('sha256');
  const signer = createSign('sha256');
  let bytes = 0;
  try {
    for await (const chunk of createReadStream(path)) {
      hash.update(chunk as Buffer);
      signer.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
  } catch (e) {
    throw new SigningError(`${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return { bytes, sha256: hash.digest('hex'), der: signer.sign({ key, dsaEncoding: 'der' }) };
}

export interface SignOptions {
  image: string;
  key: KeyObject;
  version: string;
  url: string;
}

/** The four properties of `image` signed with `key`; the signature is checked with the public half before it is returned. */
export async function signImage(
  o: SignOptions,
): Promise<{ properties: FirmwareProperties; bytes: number; der: Buffer }> {
  const { bytes, sha256, der } = await digestAndSign(o.image, o.key);
  const verifier = createVerify('sha256');
  for await (const chunk of createReadStream(o.image)) verifier.update(chunk as Buffer);
  if (!verifier.verify({ key: createPublicKey(o.key), dsaEncoding: 'der' }, der)) {
    throw new SigningError(`${o.image}: the signature does not verify (the image changed while it was signed?)`);
  }
  return {
    properties: { 'fw-version': o.version, 'fw-url': o.url, 'fw-sha256': sha256, 'fw-sig': der.toString('base64') },
    bytes,
    der,
  };
}
