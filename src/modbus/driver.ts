/**
 * The driver of one `modbus` channel (src/agent/driver.ts).
 *
 * `sample()` asks the bus's master for the channel's coils or registers (joined
 * with the other reads due at that moment, master.ts) and resolves with the
 * RAW value or the read's error (the agent scales, src/codec/scale.ts). Two
 * sample objects are reused, so steady scanning allocates nothing here. An
 * error is logged when it differs from the previous scan's, not on every scan.
 *
 * `applyDesired(raw)` (coils and holding registers that are not read-only; else
 * -EROFS) takes the raw value after the agent's inverse scaling; the encoder
 * rounds it to a count and checks it against the field's exact range (-ERANGE),
 * so the driver gives the agent no `rawRange` to check twice. Then the write,
 * and a read-back that is the answer. Coil fields
 * write `dataSize` coils from `registerAddress + dataOffset` (FC 5 or 15). A
 * register field is written over the registers it touches (FC 6 or 16); a field
 * that does not cover them whole is read first (FC 3) so that the other bits
 * stay as they are.
 */
import { errorSample, type ChannelDriver, type Sample, type Value } from '../agent/driver.js';
import { decodeData, encodeData, isFailure, type Failure } from '../codec/field.js';
import type { ModbusChannel } from '../config/model.js';
import { AgentError, warn } from '../errors.js';
import { Errno } from '../errno.js';
import type { Logger } from '../ports.js';
import type { ModbusMaster, ModbusResult } from './master.js';
import { readLimit, type FunctionCode, type ModbusRequest } from './rtu.js';

/** The read function code of each register type; the odd ones (coils, holding registers) are writable. */
const readFunction = { coil: 1, discreteInput: 2, holdingRegister: 3, inputRegister: 4 } as const;

/** The part of the bus's master a channel uses. */
export type Bus = Pick<ModbusMaster, 'request'>;

export class ModbusChannelDriver implements ChannelDriver {
  readonly #channel: ModbusChannel;
  /** The bus's master, or the error number of a bus that has none. */
  readonly #bus: Bus | number;
  readonly #logger: Logger;
  /** The channel's read. */
  readonly #read: ModbusRequest;
  /** Bits per address: 1 for coils and discrete inputs, 16 for registers. */
  readonly #width: number;
  readonly #value: { ok: true; value: Value } = { ok: true, value: 0 };
  readonly #error: { ok: false; errno: number } = { ok: false, errno: 0 };
  #lastErrno = 0;

  /** Throws AgentError `config.invalid` when the channel's field cannot be read in one request. */
  constructor(channel: ModbusChannel, bus: Bus | number, logger: Logger) {
    this.#channel = channel;
    this.#bus = bus;
    this.#logger = logger;
    const functionCode = readFunction[channel.registerType];
    const width = (this.#width = functionCode <= 2 ? 1 : 16);
    const count = Math.ceil((channel.dataOffsetBits + channel.dataSizeBits) / width);
    const address = channel.registerAddress;
    if (count > readLimit(functionCode) || address + count > 65536) {
      throw new AgentError('config.invalid', `modbus ${channel.key}: field beyond one request`);
    }
    this.#read = { unit: channel.deviceAddress, functionCode, address, count };
  }

  sample(): Promise<Sample> | Sample {
    const bus = this.#bus;
    if (typeof bus === 'number') return this.#fail(bus, 'bus unavailable');
    return bus.request(this.#read).then((result) => this.#toSample(result));
  }

  /** Nothing to release: the bus and its master belong to the provider. */
  close(): void {}

  #toSample(result: ModbusResult): Sample {
    if (!result.ok) return this.#fail(result.errno, result.reason);
    const width = this.#width;
    const decoded = decodeData(result.data, this.#channel, (this.#read.address - result.address) * width, width === 1);
    if (isFailure(decoded)) return this.#fail(decoded.errno, decoded.reason);
    this.#lastErrno = 0;
    this.#value.value = decoded;
    return this.#value;
  }

  #fail(errno: number, reason: string): Sample {
    if (errno !== this.#lastErrno) {
      this.#lastErrno = errno;
      warn(this.#logger, `modbus ${this.#channel.key}: ${reason} (${errno})`);
    }
    this.#error.errno = errno;
    return this.#error;
  }

  async applyDesired(raw: Value): Promise<Sample> {
    const c = this.#channel;
    const bus = this.#bus;
    if (c.readOnly || this.#read.functionCode % 2 === 0) return errorSample(Errno.EROFS);
    if (typeof bus === 'number') return errorSample(bus);
    const written = await this.#write(bus, raw);
    if (!written.ok) {
      warn(this.#logger, `modbus ${c.key}: write ${written.reason} (${written.errno})`);
      return errorSample(written.errno);
    }
    return { ...this.#toSample(await bus.request(this.#read)) };
  }

  /** One path for coils (1 bit per address) and registers (16): the addresses the field touches, written whole. */
  async #write(bus: Bus, raw: Value): Promise<ModbusResult | Failure> {
    const c = this.#channel;
    const { dataOffsetBits: offset, dataSizeBits: size } = c;
    const width = this.#width;
    const bits = width === 1;
    // The channel's read less the addresses before the field's first bit.
    const { unit, address: from, count: through } = this.#read;
    const first = Math.floor(offset / width);
    const count = through - first;
    const address = from + first;
    let data = new Uint8Array(Math.ceil((count * width) / 8));
    // A field that does not cover its registers whole: read them first (never so for coils).
    if ((offset | size) % width !== 0) {
      const read = await bus.request({ unit, functionCode: 3, address, count });
      if (!read.ok) return read;
      data = read.data.slice((address - read.address) * 2, (address - read.address + count) * 2);
    }
    const refused = encodeData(raw, { ...c, dataOffsetBits: offset - first * width }, data, bits);
    if (refused !== undefined) return refused;
    // FC 5 and 6 write one coil (ON is 0xFF00) or register, FC 15 and 16 several.
    if (bits && count === 1) data = Uint8Array.of(data[0] ? 0xff : 0, 0);
    const functionCode = ((bits ? 5 : 6) + (count > 1 ? 10 : 0)) as FunctionCode;
    return bus.request({ unit, functionCode, address, count, data });
  }
}
