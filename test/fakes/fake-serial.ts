/**
 * A fake Serial port: records what the core writes, and lets a test (or a
 * simulated peer) deliver bytes to the core in any chunking.
 */
import type { AgentError } from '../../src/errors.js';
import type { Serial, SerialHandlers, SerialOptions, SerialPort } from '../../src/ports.js';

export class FakeSerialPort implements SerialPort {
  readonly written: Uint8Array[] = [];
  closed = false;
  /** Called with each write, e.g. by a simulated peer that answers. */
  onWrite: ((bytes: Uint8Array) => void) | undefined;

  constructor(
    readonly options: SerialOptions,
    private readonly handlers: SerialHandlers,
  ) {}

  write(bytes: Uint8Array): void {
    if (this.closed) throw new Error('write on a closed fake serial port');
    const copy = bytes.slice();
    this.written.push(copy);
    this.onWrite?.(copy);
  }

  close(): void {
    this.closed = true;
  }

  /** Delivers bytes to the core, as one chunk. */
  deliver(bytes: Uint8Array | readonly number[]): void {
    if (!this.closed) this.handlers.onData(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes));
  }

  /** Delivers an ASCII string (NMEA), in chunks of `chunkSize` bytes. */
  deliverText(text: string, chunkSize = text.length): void {
    const size = Math.max(1, chunkSize);
    for (let i = 0; i < text.length; i += size) {
      const part = text.slice(i, i + size);
      const bytes = new Uint8Array(part.length);
      for (let j = 0; j < part.length; j++) bytes[j] = part.charCodeAt(j) & 0xff;
      this.deliver(bytes);
    }
  }

  fail(error: AgentError): void {
    this.handlers.onError?.(error);
  }
}

export class FakeSerial implements Serial {
  readonly ports: FakeSerialPort[] = [];
  /** When set, `open` throws it (a device that is not there). */
  failOpen: Error | undefined;

  open(options: SerialOptions, handlers: SerialHandlers): FakeSerialPort {
    if (this.failOpen !== undefined) throw this.failOpen;
    const port = new FakeSerialPort(options, handlers);
    this.ports.push(port);
    return port;
  }

  /** The most recently opened port. */
  get last(): FakeSerialPort {
    const port = this.ports[this.ports.length - 1];
    if (port === undefined) throw new Error('no fake serial port was opened');
    return port;
  }
}
