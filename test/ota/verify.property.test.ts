/**
 * The image check on Node (targets/node/ota.ts, node:crypto) and the updater
 * with it: an image signed as `openssl dgst -sha256 -sign` signs it installs;
 * any flipped byte of the image, any truncation, a flipped signature byte and
 * another key's signature each fail (fast-check), and the slot is cancelled.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { nodeImageCheck, updateKey } from '../../targets/node/ota.js';
import { toBase64 } from '../fakes/fake-ota.js';
import { board, drain, makeImage } from '../core/ota/harness.js';

const pair = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const vendor = pair();
const other = pair();
const spki = (k: KeyObject): string => k.export({ format: 'der', type: 'spki' }).toString('base64');

function check(image: Uint8Array, signature: Uint8Array, key = vendor.publicKey) {
  const c = nodeImageCheck(key)();
  c.write(image.subarray(0, 100));
  c.write(image.subarray(100));
  return { sha256: Buffer.from(c.sha256()).toString('hex'), ok: c.verify(signature) };
}

/** A -> B with the Node check of the vendor's key, `served` at the URL, the properties given. */
async function update(served: Uint8Array, signature: Uint8Array, sha256: string) {
  const key = updateKey(spki(vendor.publicKey));
  const u = board('1.0.0', undefined, {});
  const { slots } = u;
  const real = board('1.0.0', u, { image: { slots, check: nodeImageCheck(key) } });
  real.http.images.set('b.bin', served);
  real.http.properties = {
    'fw-version': '1.1.0',
    'fw-url': 'http://dds.test/firmware/b.bin',
    'fw-sha256': sha256,
    'fw-sig': toBase64(signature),
  };
  await real.updater.start();
  await drain();
  return { status: real.updater.status, slots };
}

describe('ota image check (node:crypto)', () => {
  it('verifies a signature that openssl dgst -sha256 -sign made, from the key given as PEM or base64 SPKI', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ota-sig-'));
    try {
      const image = makeImage(3000, 9);
      writeFileSync(join(dir, 'image.bin'), image);
      writeFileSync(join(dir, 'key.pem'), vendor.privateKey.export({ format: 'pem', type: 'pkcs8' }));
      const sig = execFileSync('openssl', ['dgst', '-sha256', '-sign', join(dir, 'key.pem'), join(dir, 'image.bin')]);
      const pem = vendor.publicKey.export({ format: 'pem', type: 'spki' }).toString();
      for (const key of [updateKey(pem), updateKey(spki(vendor.publicKey))]) {
        const r = check(image, new Uint8Array(sig), key);
        assert.equal(r.ok, true);
        assert.equal(r.sha256, createHash('sha256').update(image).digest('hex'));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a key that is not EC P-256 with config.invalid', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    assert.throws(() => updateKey(spki(rsa)), { code: 'config.invalid' });
    assert.throws(() => updateKey('bm90IGEga2V5'), { code: 'config.invalid' });
  });

  it('any flipped image byte, any truncation, any flipped signature byte and another key fail', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (length, at, xor) => {
        const image = makeImage(length, length + 1);
        const signature = new Uint8Array(sign('sha256', image, vendor.privateKey));
        assert.equal(check(image, signature).ok, true);
        const flipped = image.slice();
        flipped[at % length]! ^= xor;
        assert.equal(check(flipped, signature).ok, false, 'flipped image byte');
        assert.equal(check(image.subarray(0, at % length), signature).ok, false, 'truncated');
        const badSig = signature.slice();
        badSig[at % badSig.length]! ^= xor;
        assert.equal(check(image, badSig).ok, false, 'flipped signature byte');
        assert.equal(check(image, new Uint8Array(sign('sha256', image, other.privateKey))).ok, false, 'other key');
      }),
      { numRuns: 150 },
    );
  });

  it('through the updater: the signed image installs; a flipped byte with its own SHA-256 is EKEYREJECTED, truncation EBADMSG', async () => {
    const image = makeImage(6000, 3);
    const signature = new Uint8Array(sign('sha256', image, vendor.privateKey));
    const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
    const good = await update(image, signature, sha(image));
    assert.equal(good.status, 'installed');
    assert.deepEqual(good.slots.completed, image);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 5999 }), fc.integer({ min: 1, max: 255 }), async (at, xor) => {
        const evil = image.slice();
        evil[at]! ^= xor;
        // The attacker also sets fw-sha256 to the modified image's: only the signature stops it.
        const r = await update(evil, signature, sha(evil));
        assert.equal(r.status, 'failed EKEYREJECTED');
        assert.equal(r.slots.completed, undefined);
        assert.equal(r.slots.cancelled, 1);
        const t = await update(image.slice(0, at), signature, sha(image));
        // Nothing served at all is a 416 from the server (EIO); a short image fails its SHA-256.
        assert.equal(t.status, at === 0 ? 'failed EIO' : 'failed EBADMSG');
        assert.equal(t.slots.completed, undefined);
      }),
      { numRuns: 25 },
    );
    const wrongKey = await update(image, new Uint8Array(sign('sha256', image, other.privateKey)), sha(image));
    assert.equal(wrongKey.status, 'failed EKEYREJECTED');
  });
});
