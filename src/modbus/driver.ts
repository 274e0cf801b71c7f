/**
 * The driver of one `modbus` channel (src/agent/driver.ts).
 *
 * `sample()` returns a Promise: the agent calls it at the channel's scan
 * interval, the bus scanner reads the channel's registers (merged with the
 * other channels due at that moment) and the promise resolves with the scaled
 * RAW value or the error of that read (the agent scales, src/codec/scale.ts). A sample never waits on an older read twice:
 * while a read is running, further calls join it. The driver reuses two sample
 * objects, so steady scanning allocates nothing here.
 *
 * `applyDesired(raw)` (coils and holding registers that are not read-only)
 * takes the raw value after the agent's inverse scaling (bounded by `rawRange`):
 * encoding (range-checked again), the write, then a read-back whose raw value is
 * the answer. A read-only channel or register type answers -EROFS.
 */
import { errorSample, type ChannelDriver, type Sample, type Value } from '../agent/driver.js';
import { rawRangeOf } from '../codec/encode.js';
import type { RawRange } from '../codec/scale.js';
import { isFailure } from '../codec/data.js';
import type { ModbusChannel } from '../config/model.js';
import { Errno } from '../errno.js';
import type { Logger } from '../ports.js';
import { decodePoint, pointOf, type ModbusPoint, type ModbusScanner } from './scan.js';
import type { PointRead } from './scan.js';
import { writable, writePoint } from './write.js';

/** The bus a driver reads through (its scanner, which holds its master), or why it has none. */
export type BusAccess = ModbusScanner | { errno: number };

export class ModbusChannelDriver implements ChannelDriver {
  private readonly point: ModbusPoint;
  private readonly value: { ok: true; value: Value } = { ok: true, value: 0 };
  private readonly error: { ok: false; errno: number } = { ok: false, errno: 0 };
  private closed = false;
  readonly rawRange?: RawRange;
  private lastErrno = 0;

  constructor(
    private readonly channel: ModbusChannel,
    private readonly bus: BusAccess,
    private readonly logger: Logger,
  ) {
    this.point = pointOf(channel);
    const range = rawRangeOf(channel);
    if (range !== undefined) this.rawRange = range;
  }

  sample(): Promise<Sample> | Sample {
    if ('errno' in this.bus) return this.fail(this.bus.errno, 'bus unavailable');
    if (this.closed) return this.fail(Errno.EIO, 'closed');
    return this.bus.read(this.point).then((read) => this.toSample(read));
  }

  close(): void {
    this.closed = true;
  }

  private toSample(read: PointRead): Sample {
    if (!read.result.ok) return this.fail(read.result.errno, read.result.reason);
    const decoded = decodePoint(this.channel, this.point, read.readAddress, read.result.data);
    if (isFailure(decoded)) return this.fail(decoded.errno, decoded.reason);
    this.lastErrno = 0;
    this.value.value = decoded;
    return this.value;
  }

  /** An error sample; logs once per change of error, so a dead device does not flood the log. */
  private fail(errno: number, reason: string): Sample {
    if (errno !== this.lastErrno) {
      this.lastErrno = errno;
      this.logger.log('warn', `modbus: channel ${this.channel.key}: ${reason}`, {
        channel: this.channel.key,
        unit: this.channel.deviceAddress,
        errno,
      });
    }
    this.error.errno = errno;
    return this.error;
  }

  async applyDesired(desired: Value): Promise<Sample> {
    if (!writable(this.channel)) return errorSample(Errno.EROFS);
    if ('errno' in this.bus) return errorSample(this.bus.errno);
    const written = await writePoint(this.bus.master, this.channel, this.point, desired);
    if (!written.ok) {
      this.logger.log('warn', `modbus: write of ${this.channel.key} failed: ${written.reason}`, {
        channel: this.channel.key,
        errno: written.errno,
      });
      return errorSample(written.errno);
    }
    const read = await this.bus.master.request({
      unit: this.point.unit,
      functionCode: this.point.readFunction,
      address: this.point.address,
      count: this.point.count,
    });
    const sample = this.toSample({ result: read, readAddress: this.point.address });
    return sample.ok ? { ok: true, value: sample.value } : errorSample(sample.errno);
  }
}
