/**
 * The driver of one `can` channel (src/agent/driver.ts). CAN data arrive on
 * their own schedule, so `sample()` answers synchronously from the latest
 * payload of the channel's subscription (src/can/listener.ts), decoded with the
 * shared decoder (J1939 defaults to little endian, decisions.md sections 1, 2);
 * the value is RAW (the agent scales, src/codec/scale.ts). J1939 not-available and error values report errors
 * (src/can/j1939-values.ts).
 *
 * Timeout: a channel with no matching frame for 3 x its scan interval reports
 * -ETIMEDOUT; until the first frame, scans inside that window are skipped
 * (`undefined`, nothing to say yet).
 */
import type { ChannelDriver, Sample, Value } from '../agent/driver.js';
import { decodeBits, fitsWindow, isFailure, isIntegerType, readBits, SHORT_DATA } from '../codec/field.js';
import type { Bits64, Decoded } from '../codec/field.js';
import type { CanChannel } from '../config/model.js';
import { Errno } from '../errno.js';
import type { Clock } from '../ports.js';
import { j1939Indicator } from './j1939-values.js';
import type { CanSubscription } from './listener.js';

/** Scan intervals without a frame after which a channel reports -ETIMEDOUT. */
export const CAN_TIMEOUT_SCANS = 3;

const scratch: Bits64 = { hi: 0, lo: 0 };

export class CanChannelDriver implements ChannelDriver {
  private readonly value: { ok: true; value: Value } = { ok: true, value: 0 };
  private readonly error: { ok: false; errno: number } = { ok: false, errno: 0 };
  private readonly sinceMs: number;
  private readonly timeoutMs: number;
  private readonly j1939: boolean;

  constructor(
    private readonly channel: CanChannel,
    private readonly subscription: CanSubscription,
    private readonly clock: Clock,
  ) {
    this.sinceMs = clock.monotonicMs();
    this.timeoutMs = CAN_TIMEOUT_SCANS * channel.scanIntervalMs;
    this.j1939 = channel.protocol?.type === 'j1939';
  }

  sample(): Sample | undefined {
    const now = this.clock.monotonicMs();
    const at = this.subscription.receivedMs;
    if (at === undefined) return now - this.sinceMs >= this.timeoutMs ? this.fail(Errno.ETIMEDOUT) : undefined;
    if (now - at > this.timeoutMs) return this.fail(Errno.ETIMEDOUT);
    const decoded = this.decode(this.subscription.payload);
    if (isFailure(decoded)) return this.fail(decoded.errno);
    this.value.value = decoded;
    return this.value;
  }

  /** CAN channels are not written in this version. */
  applyDesired(): Sample {
    return { ok: false, errno: this.channel.readOnly ? Errno.EROFS : Errno.EOPNOTSUPP };
  }

  close(): void {}

  private decode(payload: Uint8Array): Decoded {
    const c = this.channel;
    if (!fitsWindow(payload.length, c.dataOffsetBits, c.dataSizeBits)) return SHORT_DATA;
    const bits = readBits(payload, c.dataOffsetBits, c.dataSizeBits, c.dataOrder === 'bigEndian', scratch);
    if (this.j1939 && (isIntegerType(c.dataType) || c.dataType === 'bool')) {
      const indicator = j1939Indicator(bits, c.dataSizeBits);
      if (indicator !== undefined) return indicator;
    }
    return decodeBits(bits, c.dataSizeBits, c.dataType);
  }

  private fail(errno: number): Sample {
    this.error.errno = errno;
    return this.error;
  }
}
