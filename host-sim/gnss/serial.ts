/**
 * A `Serial` whose one device is a SimulatedReceiver: hand it to the
 * GnssLocationProvider (or any consumer of the Serial port) in place of a real
 * UART. Opening the port attaches the receiver; closing it detaches.
 *
 * Opening at a baud rate other than the receiver's gives what a real UART
 * gives: framing garbage (every byte scrambled), so a misconfigured board is
 * visible in the simulator as a receiver that never yields a sentence.
 */
import type { Serial, SerialHandlers, SerialOptions, SerialPort } from '../../src/ports.js';
import type { SimulatedReceiver } from './receiver.js';

/** A byte as it looks when sampled at the wrong rate (deterministic, never a clean '$' line). */
function scramble(b: number): number {
  return ((b * 37 + 11) & 0xff) | 0x80;
}

export class SimulatedGnssSerial implements Serial {
  /** The options of the last open (port, baud rate), for tests. */
  lastOptions: SerialOptions | undefined;
  /** Bytes the consumer wrote to the receiver (configuration commands), ignored by it. */
  readonly written: Uint8Array[] = [];

  /** @param baudRate the rate the receiver talks at (default 9600, as most GNSS modules ship). */
  constructor(
    private readonly receiver: SimulatedReceiver,
    readonly baudRate = 9600,
  ) {}

  open(options: SerialOptions, handlers: SerialHandlers): SerialPort {
    this.lastOptions = options;
    const receiver = this.receiver;
    const written = this.written;
    const wrongRate = options.baudRate !== this.baudRate;
    receiver.attach({
      deliver: (bytes) => handlers.onData(wrongRate ? bytes.map(scramble) : bytes),
    });
    return {
      write(bytes: Uint8Array): void {
        written.push(bytes.slice());
      },
      close(): void {
        receiver.detach();
      },
    };
  }
}
