/**
 * The contract between the agent and whatever produces a channel's values:
 * pins, custom values, GNSS, Modbus, CAN. Composition roots register one
 * provider per family of channel types; a type with no provider reports
 * -EOPNOTSUPP (decisions 4).
 */
import { Errno } from '../errno.js';
import type { Channel, ChannelConfig, ChannelType } from '../config/model.js';
import type { RawRange } from '../codec/scale.js';

/** A GNSS position; fields present when known (decisions 4). */
export interface Location {
  lat?: number;
  lon?: number;
  alt?: number;
  pdop?: number;
  hdop?: number;
  vdop?: number;
  sats?: number;
}

/** A state value (spec 2.6). */
export type Value = boolean | number | string;

/** What one scan of a channel yields. */
export type SampleValue = Value | Location;

/**
 * One sample: a value, or a negative POSIX error number. Drivers may return the
 * same (mutated) object every scan to avoid allocating; the agent copies what it keeps.
 */
export type Sample = { ok: true; value: SampleValue } | { ok: false; errno: number };

/**
 * Scaling is the agent's job, not the driver's: numeric samples of
 * `analogInput`, `analogOutput`, `modbus` and `can` channels are RAW (decoded
 * counts or register values); the agent applies scaleGain/scaleOffset before
 * transmit events, and inverse scaling before `applyDesired` (decisions 2,
 * src/codec/scale.ts). Custom, digital and location values are not scaled.
 */
export interface ChannelDriver {
  /**
   * The channel's current sample, called once per scan. Synchronous sources
   * answer directly; bus sources may answer with a promise. `undefined` skips
   * this scan (nothing to say yet).
   */
  sample(): Sample | Promise<Sample> | undefined;
  /**
   * Applies a desired value as the agent hands it (ChannelSlot.write): the
   * channel is writable, the value is of the channel's kind (a boolean, a
   * number, an integer) and a number is inverse-scaled into `rawRange`.
   * Resolves with what is read back, or an error sample (-EIO ...). Absent on
   * inputs: the agent answers -EROFS.
   */
  applyDesired?(value: Value): Sample | Promise<Sample>;
  /**
   * The raw range `applyDesired` accepts for numbers (e.g. PWM duty 0..1023,
   * uint16 0..65535). The agent rounds, clamps or rejects (-ERANGE) after
   * inverse scaling (decisions 2). Absent: no range check.
   */
  readonly rawRange?: RawRange;
  close(): void;
}

export interface ChannelDriverProvider {
  /** The channel types this provider drives. */
  readonly types: readonly ChannelType[];
  /** Called with each new configuration, before `create` for its channels. */
  configure?(config: ChannelConfig): void;
  /** A driver for one channel; throws AgentError to reject the channel (reported as an error state). */
  create(channel: Channel): ChannelDriver;
  /** Releases shared resources (serial ports, buses). */
  close?(): void;
}

/** Shorthands that allocate once. */
export function okSample(value: SampleValue): Sample {
  return { ok: true, value };
}

export function errorSample(errno: number): Sample {
  return { ok: false, errno };
}

/** A read that failed (-EIO): one shared object, never changed. */
export const FAILED: Sample = errorSample(Errno.EIO);
