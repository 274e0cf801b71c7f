/**
 * Fakes of the update ports (src/ota/ports.ts), portable (they run on XS too):
 * boot slots that keep the written image in memory and count confirmations,
 * rollbacks and restarts; a stand-in digest and signature that are not
 * cryptography (XS in the tests has no crypto; the real SHA-256 and ECDSA are
 * tested through the Node adapters) but change with any byte and any key.
 */
import type { BootSlots, ImageCheck, ImagePorts, ImageWriter, SlotState } from '../../src/ota/ports.js';

export class FakeSlots implements BootSlots {
  /** The running image's state. */
  current: SlotState = 'valid';
  /** Largest image the other slot holds. */
  capacity = 1 << 20;
  /** Bytes the writer has taken so far, and the completed image. */
  written: number[] = [];
  completed: Uint8Array | undefined;
  /** When set, `write` throws once the image passes this many bytes. */
  failWriteAfter: number | undefined;
  opened = 0;
  cancelled = 0;
  confirmed = 0;
  rolledBack = 0;
  restarted = 0;

  open(byteLength: number): ImageWriter {
    if (byteLength > this.capacity) throw new Error(`fake slots: ${byteLength} B over the slot`);
    this.opened++;
    this.written = [];
    let done = false;
    return {
      write: (bytes) => {
        if (done) throw new Error('fake slots: writer closed');
        if (this.failWriteAfter !== undefined && this.written.length + bytes.length > this.failWriteAfter)
          throw new Error('fake slots: flash write failed');
        for (const b of bytes) this.written.push(b);
        if (this.written.length > byteLength) throw new Error('fake slots: past byteLength');
      },
      cancel: () => {
        done = true;
        this.cancelled++;
      },
      complete: () => {
        if (done || this.written.length !== byteLength) throw new Error('fake slots: incomplete image');
        done = true;
        this.completed = Uint8Array.from(this.written);
      },
    };
  }

  state(): SlotState {
    return this.current;
  }

  confirm(): void {
    this.confirmed++;
    this.current = 'valid';
  }

  rollback(): void {
    this.rolledBack++;
  }

  restart(): void {
    this.restarted++;
  }
}

/** A 32-byte stand-in digest: position-weighted sums, so any changed, added or missing byte changes it. */
function fakeDigest(): { write(bytes: Uint8Array): void; close(): Uint8Array } {
  const acc = new Uint32Array(32);
  let n = 0;
  return {
    write(bytes) {
      for (const b of bytes) {
        const i = n % 32;
        acc[i] = ((acc[i] ?? 0) * 31 + b + 1 + (n >>> 5)) >>> 0;
        n++;
      }
    },
    close: () => Uint8Array.from(acc, (v, i) => (v ^ (v >>> 8) ^ (v >>> 16) ^ (v >>> 24) ^ n ^ i) & 0xff),
  };
}

export function digestOf(image: Uint8Array): Uint8Array {
  const d = fakeDigest();
  d.write(image);
  return d.close();
}

/** A stand-in DER-shaped signature of `digest` by `key` (one byte). */
export function fakeSign(digest: Uint8Array, key: number): Uint8Array {
  return Uint8Array.from([0x30, digest.length + 1, key, ...digest.map((b) => b ^ key)]);
}

/** The ports with fake slots, fake digest and a verifier of `key`'s fake signatures. */
export function fakeImagePorts(slots = new FakeSlots(), key = 7): ImagePorts & { slots: FakeSlots } {
  return {
    slots,
    check: (): ImageCheck => {
      const d = fakeDigest();
      let digest: Uint8Array | undefined;
      return {
        write: (bytes) => d.write(bytes),
        sha256: () => (digest = d.close()),
        verify: (sig) => digest !== undefined && sameAs(sig, fakeSign(digest, key)),
      };
    },
  };
}

function sameAs(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Standard base64 of bytes (portable: no btoa on XS). */
export function toBase64(bytes: Uint8Array): string {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += abc.charAt(n >> 18) + abc.charAt((n >> 12) & 63);
    out += i + 1 < bytes.length ? abc.charAt((n >> 6) & 63) : '=';
    out += i + 2 < bytes.length ? abc.charAt(n & 63) : '=';
  }
  return out;
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => (b < 16 ? '0' : '') + b.toString(16)).join('');
}
