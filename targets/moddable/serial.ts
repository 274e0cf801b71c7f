/**
 * The Serial port on Moddable: ECMA-419 `Serial` in buffer format.
 *
 * Moddable's ESP32 UART driver runs 8 data bits, no parity, one stop bit only;
 * other framings are refused with `unsupported` rather than run wrongly. RS-485
 * direction: the direction pin is driven high before a write and released once
 * the bytes have left the UART (their time on the wire at the baud rate, plus a
 * character of margin), because ECMA-419 has no "transmit complete" event.
 */
import { AgentError } from '../../src/errors.js';
import type { Clock, Serial, SerialHandlers, SerialOptions, SerialPort, TimerHandle } from '../../src/ports.js';
import type { IoClasses, SerialPins } from './io.js';

/** Bits on the wire per byte at 8N1. */
const BITS_PER_BYTE = 10;

/** The board's UARTs through `io`, on the pins given by port number (from the board configuration). */
export function moddableSerial(
  { Digital, Serial: Uart }: IoClasses,
  clock: Clock,
  pinsByPort: Readonly<Record<string, SerialPins>>,
): Serial {
  return {
    open(options: SerialOptions, handlers: SerialHandlers): SerialPort {
      const name = `serial port ${options.port}`;
      if (
        (options.dataBits ?? 8) !== 8 ||
        (options.parity ?? 'none') !== 'none' ||
        (options.stopBits ?? 'one') !== 'one'
      ) {
        throw new AgentError('unsupported', `${name}: 8N1 framing only on this target`);
      }
      const pins = pinsByPort[String(options.port)];
      if (pins === undefined) throw new AgentError('pin.unavailable', `${name} has no pins configured`);
      const port = Number(options.port);
      let direction: InstanceType<typeof Digital> | undefined;
      let serial: InstanceType<typeof Uart>;
      try {
        if (options.directionPin !== undefined) {
          direction = new Digital({ pin: options.directionPin, mode: Digital.Output });
          direction.write(0);
        }
        serial = new Uart({
          port,
          receive: pins.receive,
          transmit: pins.transmit,
          baud: options.baudRate,
          format: 'buffer',
          onReadable() {
            const data = this.read();
            if (data instanceof ArrayBuffer && data.byteLength > 0) handlers.onData(new Uint8Array(data));
          },
        });
      } catch (e) {
        direction?.close();
        throw new AgentError('pin.unavailable', `${name} cannot be opened`, { cause: e });
      }
      const byteMs = (BITS_PER_BYTE * 1000) / options.baudRate;
      // A fired timer's handle, and undefined, are ignored by clearTimer (the Clock port), so it is kept.
      let release: TimerHandle | undefined;
      return {
        write(bytes: Uint8Array) {
          const dir = direction;
          if (dir !== undefined) {
            clock.clearTimer(release);
            dir.write(1);
          }
          try {
            serial.write(bytes);
          } catch (e) {
            handlers.onError?.(new AgentError('network', `${name}: write failed`, { cause: e }));
          }
          if (dir !== undefined) release = clock.setTimer(() => dir.write(0), Math.ceil((bytes.length + 1) * byteMs));
        },
        close() {
          clock.clearTimer(release);
          serial.close();
          direction?.close();
        },
      };
    },
  };
}
