/**
 * The update ports on a board (src/ota/ports.ts), nearly pass-throughs to the
 * SDK: the boot slots over the `ota` module (the other app partition: `new
 * OTA({byteLength})`, `write`, `cancel`, `complete`) and our `bootslots`
 * native module (the bootloader's app rollback, bootslots/bootslots.c); the
 * image check over `crypt`'s SHA-256 Digest and the SDK's ECDSA (modules/crypt:
 * the same verifier TLS uses for ECDSA certificates) on curve secp256r1.
 *
 * The public key (board configuration `fwKey`) is the base64 of its DER
 * SubjectPublicKeyInfo, as `openssl ec -pubout -outform DER | base64` prints it
 * (`npm run firmware -- keygen` prints it too): a fixed 26-byte header, then the
 * uncompressed point.
 */
import * as BootSlots from 'bootslots';
import { Digest } from 'crypt';
import Curve from 'curve';
import ECDSA from 'ecdsa';
import ECPoint from 'ecp';
import OTA from 'ota';
import { AgentError } from '../../src/errors.js';
import { fromBase64, fromHex, sameBytes } from '../../src/ota/firmware.js';
import type { ImagePorts, SlotState } from '../../src/ota/ports.js';

/** DER SubjectPublicKeyInfo header of an EC P-256 key (id-ecPublicKey, prime256v1), before its 65-byte point. */
const spkiHeader = fromHex('3059301306072a8648ce3d020106082a8648ce3d030107034200')!;

/** The ports of a board whose configured key is `fwKey`; throws `config.invalid` for a bad key. */
export function moddableImagePorts(fwKey: string): ImagePorts {
  const der = fromBase64(fwKey) ?? new Uint8Array(0);
  const point = der.subarray(spkiHeader.length);
  if (der.length !== 91 || !sameBytes(der.subarray(0, 26), spkiHeader) || point[0] !== 4)
    throw new AgentError('config.invalid', 'fwKey: expected the base64 DER of an EC P-256 public key');
  const ecdsa = new ECDSA(ECPoint.fromOctetString(point), new Curve('secp256r1'));
  return {
    slots: {
      open: (byteLength) => new OTA({ byteLength }),
      state: () => BootSlots.state() as SlotState,
      confirm: BootSlots.confirm,
      rollback: BootSlots.rollback,
      restart: BootSlots.restart,
    },
    check() {
      const digest = new Digest('SHA256');
      let sum: ArrayBuffer | undefined;
      return {
        write: (bytes) => digest.write(bytes),
        sha256: () => new Uint8Array((sum = digest.close())),
        verify(signature) {
          try {
            return sum !== undefined && ecdsa.verify(sum, signature.slice().buffer, true) === true;
          } catch {
            // A malformed DER signature throws in the SDK's BER reader.
            return false;
          }
        },
      };
    },
  };
}
