/**
 * The ports of over-the-air updates (docs/ota.md): what a host gives the
 * updater to write, check and boot an image. Shaped like what the Moddable SDK
 * has on ESP32, so that the board's adapters are pass-throughs: the `ota`
 * module (`new OTA({byteLength})`, `write`, `cancel`, `complete`), `crypt`'s
 * `Digest("SHA256")`, and the bootloader's app rollback (our native module,
 * targets/moddable/bootslots). The Node adapters use node:crypto; tests use
 * small fakes (test/fakes/fake-ota.ts).
 */

/**
 * One image being written to the other boot slot, in order. Nothing of it
 * boots until `complete()`; `cancel()` drops it. Each method throws when the
 * flash refuses (the updater reports `failed EIO`).
 */
export interface ImageWriter {
  write(bytes: Uint8Array): void;
  /** Drops the image: the slot is left unbootable. */
  cancel(): void;
  /** Marks the image whole: the next restart boots it, on trial. */
  complete(): void;
}

/** The state of the running image, as the bootloader sees it. */
export type SlotState =
  /** Confirmed (or there is no rollback: a first flash). */
  | 'valid'
  /** Booted for the first time after an update: on trial until `confirm()` or `rollback()`. */
  | 'trial';

/**
 * The boot slots (the bootloader's side): the writer of the other slot, the
 * trial state of the running one, and restarts.
 */
export interface BootSlots {
  /** Opens the other slot for an image of `byteLength` bytes (throws when it does not fit). */
  open(byteLength: number): ImageWriter;
  /** The running image's state. */
  state(): SlotState;
  /** Keeps the running image (it passed its trial). */
  confirm(): void;
  /** Marks the running image bad and restarts into the previous one. */
  rollback(): void;
  /** Restarts (into the image `complete()` marked, if any). */
  restart(): void;
}

/**
 * The checks of one image as it is written, in one pass: its SHA-256 and its
 * signature, a DER ECDSA P-256 signature with SHA-256 (as `openssl dgst
 * -sha256 -sign` makes it) by the key in the board's configuration. On a
 * board `crypt`'s Digest hashes once and ECDSA verifies that digest; node:crypto
 * verifies only over the bytes, so its adapter feeds both.
 */
export interface ImageCheck {
  write(bytes: Uint8Array): void;
  /** The 32-byte SHA-256 of the bytes written; called once, after the last write. */
  sha256(): Uint8Array;
  /** Whether `derSignature` signs the bytes written (after `sha256()`); false when malformed; never throws. */
  verify(derSignature: Uint8Array): boolean;
}

/** What a host that installs images gives the updater. */
export interface ImagePorts {
  slots: BootSlots;
  /** A new check, for each image. */
  check: () => ImageCheck;
}
