/**
 * The boot slots of a simulated fleet device (src/ota/ports.ts `BootSlots`),
 * the bootloader played in memory: two slots, the running one and the other.
 * The image writer keeps no bytes: it hashes what is written (SHA-256) and
 * counts it, and `complete()` names the image by that hash through
 * `identify` (the rollout knows the images it published), which is how this
 * bootloader knows which build to start. Like the device's store, the slots
 * outlive the device's restarts (flash).
 *
 * `restart()` and `rollback()` ask the device to restart (`onRestart`); the
 * device then calls `boot()`, which starts the completed image on trial, or
 * after a rollback the previous one, or, when an image on trial restarts
 * without having confirmed itself, the previous one too (as ESP-IDF's
 * bootloader does).
 */
import { createHash, type Hash } from 'node:crypto';
import type { BootSlots, ImageWriter, SlotState } from '../../src/ota/ports.js';

interface Slot {
  version: string;
  state: SlotState;
}

export class SimSlots implements BootSlots {
  private running: Slot;
  private previous: string | undefined;
  /** What the next `boot()` starts. */
  private next: Slot | undefined;
  /** Bytes written to the other slot, over every image (a figure of the rollout). */
  writtenBytes = 0;

  constructor(
    version: string,
    /** The version of a completed image, by its SHA-256 (hex); undefined: an unknown image. */
    private readonly identify: (sha256: string) => string | undefined,
    private readonly onRestart: () => void,
    /** Largest image the other slot holds, bytes. */
    private readonly capacity = 1_966_080,
  ) {
    this.running = { version, state: 'valid' };
  }

  /** The version the device runs now. */
  get version(): string {
    return this.running.version;
  }

  open(byteLength: number): ImageWriter {
    if (byteLength > this.capacity) throw new RangeError(`sim slots: ${byteLength} B do not fit ${this.capacity} B`);
    let hash: Hash | undefined = createHash('sha256');
    let bytes = 0;
    return {
      write: (chunk) => {
        if (hash === undefined) throw new Error('sim slots: the writer is closed');
        if (bytes + chunk.length > byteLength) throw new RangeError('sim slots: past the image length');
        hash.update(chunk);
        bytes += chunk.length;
        this.writtenBytes += chunk.length;
      },
      cancel: () => {
        hash = undefined;
      },
      complete: () => {
        if (hash === undefined) throw new Error('sim slots: the writer is closed');
        if (bytes !== byteLength) throw new RangeError(`sim slots: ${bytes} of ${byteLength} B written`);
        const version = this.identify(hash.digest('hex'));
        hash = undefined;
        if (version === undefined) throw new Error('sim slots: an image no build of the fleet has');
        this.next = { version, state: 'trial' };
      },
    };
  }

  state(): SlotState {
    return this.running.state;
  }

  confirm(): void {
    this.running.state = 'valid';
  }

  rollback(): void {
    if (this.previous !== undefined) this.next = { version: this.previous, state: 'valid' };
    this.onRestart();
  }

  restart(): void {
    this.onRestart();
  }

  /** The bootloader at a restart: which build runs next (see the header). */
  boot(): void {
    if (this.next === undefined && this.running.state === 'trial' && this.previous !== undefined) {
      this.next = { version: this.previous, state: 'valid' };
    }
    if (this.next === undefined) return;
    if (this.next.state === 'trial') this.previous = this.running.version;
    this.running = this.next;
    this.next = undefined;
  }
}
