/**
 * The Serial port on Node, over the `serialport` package: a real UART or USB
 * adapter on a Linux gateway (`/dev/ttyUSB0`), or one end of a pty pair.
 * USB RS-485 adapters switch direction by themselves, so `directionPin` has no
 * meaning here and is refused rather than silently ignored. A port that
 * closes by itself (the device unplugged, the pty's other end gone) is
 * reported through `onError`, so that src/serial/reopening-serial.ts reopens it.
 */
import { SerialPort as NodeSerialPort } from 'serialport';
import { AgentError } from '../../src/errors.js';
import type { Serial, SerialHandlers, SerialOptions, SerialPort } from '../../src/ports.js';

const stopBitsMap = { one: 1, onePointFive: 1.5, two: 2 } as const;

export class NodeSerial implements Serial {
  open(options: SerialOptions, handlers: SerialHandlers): SerialPort {
    if (typeof options.port !== 'string') {
      throw new AgentError('config.invalid', `serial: on Node the port is a device path, got ${String(options.port)}`);
    }
    if (options.directionPin !== undefined) {
      throw new AgentError(
        'unsupported',
        'serial: a direction pin cannot be driven on Node; use an auto-direction RS-485 adapter',
      );
    }
    const stop = options.stopBits ?? 'one';
    if (stop === 'none')
      throw new AgentError('unsupported', 'serial: stop bits "none" is not supported by the host UART');
    const path = options.port;
    const port = new NodeSerialPort({
      path,
      baudRate: options.baudRate,
      dataBits: options.dataBits ?? 8,
      parity: options.parity ?? 'none',
      stopBits: stopBitsMap[stop],
      autoOpen: true,
    });
    port.on('data', (chunk: Buffer) => {
      handlers.onData(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    });
    let closing = false;
    port.on('error', (e: Error) => {
      if (!closing) handlers.onError?.(new AgentError('network', `serial ${path}: ${e.message}`, { cause: e }));
    });
    port.on('close', (e: Error | null) => {
      if (!closing) handlers.onError?.(new AgentError('network', `serial ${path}: closed (${e?.message ?? 'gone'})`));
    });
    return {
      write(bytes: Uint8Array): void {
        port.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      },
      close(): void {
        closing = true;
        if (port.isOpen) port.close();
        else port.once('open', () => port.close()); // still opening: close once it is open
      },
    };
  }
}
