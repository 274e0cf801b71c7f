/**
 * The simulated Modbus slave on a real serial device: one end of a pty pair
 * (socat) or a USB adapter wired back to back with the agent's. Bytes from the
 * port go to an RtuSlaveEndpoint; its answers go back out on the port.
 *
 *   node build/host-sim/modbus/serial-slave.js /dev/pts/7 [map.json] [baud] [parity]
 *
 * runs it from the command line (defaults: host-sim/modbus/demo-map.json,
 * 19200 baud, even parity, as the demo fixture's bus `rs485`).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock, Parity, Serial, SerialPort } from '../../src/ports.js';
import { RtuSlaveEndpoint, type EndpointOptions } from './link.js';
import { parseRegisterMap, type RegisterMap } from './register-map.js';
import { ModbusSlave } from './slave.js';

/** The demo register map shipped beside this file (in the source tree). */
export const demoMapPath = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'host-sim',
  'modbus',
  'demo-map.json',
);

/** Reads and validates a register-map file. */
export function readRegisterMap(path: string): RegisterMap {
  return parseRegisterMap(JSON.parse(readFileSync(path, 'utf8')) as unknown);
}

export interface SerialSlave {
  endpoint: RtuSlaveEndpoint;
  close(): void;
}

/** Runs a slave with `map` on serial device `path`. */
export function startSerialSlave(
  serial: Serial,
  clock: Clock,
  path: string,
  map: RegisterMap,
  line: { baudRate: number; parity?: Parity } = { baudRate: 19200, parity: 'even' },
  options: EndpointOptions = {},
): SerialSlave {
  const link: { port?: SerialPort } = {};
  const endpoint = new RtuSlaveEndpoint(new ModbusSlave(map), clock, (bytes) => link.port?.write(bytes), options);
  const port = serial.open(
    { port: path, baudRate: line.baudRate, dataBits: 8, parity: line.parity ?? 'none', stopBits: 'one' },
    { onData: (bytes) => endpoint.onData(bytes.slice()) },
  );
  link.port = port;
  return { endpoint, close: () => port.close() };
}

async function main(argv: readonly string[]): Promise<void> {
  const [path, mapPath, baud, parity] = argv;
  if (path === undefined) {
    process.stderr.write('usage: serial-slave.js DEVICE [map.json] [baud] [none|even|odd]\n');
    process.exit(2);
  }
  const { NodeSerial } = await import('../../targets/node/serial.js');
  const { NodeClock } = await import('../../targets/node/clock.js');
  const clock = new NodeClock();
  const map = readRegisterMap(mapPath ?? demoMapPath);
  startSerialSlave(new NodeSerial(), clock, path, map, {
    baudRate: baud === undefined ? 19200 : Number(baud),
    parity: (parity ?? 'even') as Parity,
  });
  process.stdout.write(`modbus slave on ${path}: units ${[...map.devices.keys()].join(', ')}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1])
  void main(process.argv.slice(2));
