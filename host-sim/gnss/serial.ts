/**
 * A `Serial` whose one device is a SimulatedReceiver: hand it to the
 * GnssLocationProvider (or any consumer of the Serial port) in place of a real
 * UART. Opening the port attaches the receiver; closing it detaches.
 */
import type { Serial, SerialHandlers, SerialOptions, SerialPort } from '../../src/ports.js';
import type { SimulatedReceiver } from './receiver.js';

export class SimulatedGnssSerial implements Serial {
  /** The options of the last open (port, baud rate), for tests. */
  lastOptions: SerialOptions | undefined;
  /** Bytes the consumer wrote to the receiver (configuration commands), ignored. */
  readonly written: Uint8Array[] = [];

  constructor(private readonly receiver: SimulatedReceiver) {}

  open(options: SerialOptions, handlers: SerialHandlers): SerialPort {
    this.lastOptions = options;
    const receiver = this.receiver;
    const written = this.written;
    receiver.attach({ deliver: (bytes) => handlers.onData(bytes) });
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
