/**
 * Fakes of the SDK modules the board's update adapter links (targets/moddable/ota.ts),
 * for its tests on XS (ota.xs-test.ts; test/xs/run.mjs maps the module ids here):
 * `ota` (records writes, throws like the ESP32 module past its byteLength),
 * `bootslots` (a state the test sets, counted calls), `crypt`'s Digest (a stand-in
 * digest: test/fakes/fake-ota.ts's, not SHA-256), and ECDSA that takes the fake
 * signature of that digest by the key point it was built with, and throws, as the
 * SDK's BER reader does, on a signature that is not a DER SEQUENCE.
 */
import { digestOf, fakeSign } from '../../fakes/fake-ota.js';

export const sdk = {
  writes: [] as number[][],
  opened: [] as number[],
  cancelled: 0,
  completed: 0,
  slotState: 'valid',
  confirmed: 0,
  rolledBack: 0,
  restarted: 0,
  reset(): void {
    Object.assign(sdk, { writes: [], opened: [], cancelled: 0, completed: 0, slotState: 'valid' });
    Object.assign(sdk, { confirmed: 0, rolledBack: 0, restarted: 0 });
  },
};

export class fake_ota {
  #expected: number;
  #written = 0;
  constructor(options: { byteLength?: number } = {}) {
    this.#expected = options.byteLength ?? 0;
    sdk.opened.push(this.#expected);
  }
  write(data: ArrayBuffer | ArrayBufferView): void {
    const bytes =
      data instanceof ArrayBuffer
        ? new Uint8Array(data)
        : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (this.#written + bytes.length > this.#expected) throw new Error('ota: write past byteLength');
    this.#written += bytes.length;
    sdk.writes.push(Array.from(bytes));
  }
  cancel(): void {
    sdk.cancelled++;
  }
  complete(): void {
    if (this.#written !== this.#expected) throw new Error('ota: incomplete');
    sdk.completed++;
  }
}

export const state = (): string => sdk.slotState;
export const confirm = (): void => void sdk.confirmed++;
export const rollback = (): void => void sdk.rolledBack++;
export const restart = (): void => void sdk.restarted++;

export class Digest {
  #bytes: number[] = [];
  constructor(type: string) {
    if (type !== 'SHA256') throw new Error(`crypt: ${type}`);
  }
  write(data: ArrayBuffer | ArrayBufferView): void {
    const bytes =
      data instanceof ArrayBuffer
        ? new Uint8Array(data)
        : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    for (const b of bytes) this.#bytes.push(b);
  }
  close(): ArrayBuffer {
    return digestOf(Uint8Array.from(this.#bytes)).slice().buffer;
  }
}

export class fake_ecp {
  constructor(readonly octets: Uint8Array) {}
  static fromOctetString(octets: Uint8Array): fake_ecp {
    if (octets[0] !== 4) throw new Error('unsupported format');
    return new fake_ecp(octets.slice());
  }
}

export class fake_curve {
  constructor(readonly name: string) {}
}

/** The fake key of a point is its last byte (test/fakes/fake-ota.ts signs with a one-byte key). */
export class fake_ecdsa {
  constructor(
    readonly key: fake_ecp,
    readonly curve: fake_curve,
  ) {}
  verify(digest: ArrayBuffer, signature: ArrayBuffer, asn1: boolean): boolean {
    const sig = new Uint8Array(signature);
    if (!asn1 || sig[0] !== 0x30 || sig[1] !== sig.length - 2) throw new Error('BER: not a sequence');
    if (this.curve.name !== 'secp256r1') return false;
    const expected = fakeSign(new Uint8Array(digest), this.key.octets[64] ?? -1);
    return sig.length === expected.length && sig.every((v, i) => v === expected[i]);
  }
}
