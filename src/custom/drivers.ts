/**
 * Custom channels (docs/agent.md) as the agent drives them: one driver per
 * channel, sampling the channel's last value. A writable custom channel
 * (`readOnly` false) takes desired values: the agent checks the value against the
 * channel's `customType` (boolean; number: an integer; decimal: any number), and
 * it becomes the channel's value. Read-only channels answer -EROFS (the agent). This is
 * all a firmware without application code links (boot.ts); the application's
 * side, `publish` and the `onDesired` listeners, is CustomChannels (provider.ts).
 */
import type { ChannelDriver, ChannelDriverProvider, Sample, Value } from '../agent/driver.js';
import { channelOf, type Channel, type CustomChannel } from '../config/model.js';

/** Whether `value` fits `customType` (decisions 1). */
export function fitsCustomType(channel: Pick<CustomChannel, 'customType'>, value: Value): boolean {
  const type = channel.customType;
  return type === 'boolean'
    ? typeof value === 'boolean'
    : typeof value === 'number' && (type === 'decimal' ? !Number.isNaN(value) : Number.isInteger(value));
}

/** One custom channel: the fields it needs copied from the parsed channel (not kept: heap per channel on XS). */
export class CustomDriver implements ChannelDriver {
  declare readonly key: string;
  declare readonly customType: CustomChannel['customType'];
  readonly #owner: CustomChannelDrivers;
  /** The value as a sample; made at the first value and reused. */
  #current: { ok: true; value: Value } | undefined;

  constructor(channel: CustomChannel, owner: CustomChannelDrivers) {
    this.key = channel.key;
    this.customType = channel.customType;
    this.#owner = owner;
  }

  /** Sets the value; answers the channel's sample. */
  set(value: Value): { ok: true; value: Value } {
    const current = (this.#current ??= { ok: true, value });
    current.value = value;
    return current;
  }

  sample(): { ok: true; value: Value } | undefined {
    return this.#current;
  }

  /**
   * Takes a desired value as the agent hands it: ChannelSlot.write has answered -EROFS for a
   * read-only channel and -EINVAL for a value that does not fit the `customType`.
   */
  applyDesired(value: Value): Sample {
    const sample = this.set(value);
    this.#owner.desiredApplied?.(this.key, value);
    return sample;
  }

  close(): void {
    this.#owner.forget(this);
  }
}

/** The provider of custom channel drivers. */
export class CustomChannelDrivers implements ChannelDriverProvider {
  readonly types = ['custom'] as const;
  protected readonly drivers = new Map<string, CustomDriver>();
  /** Values of channels without a driver now (kept across a reconfiguration, or published early); used at create. */
  protected readonly pending = new Map<string, Value>();
  /** Hears each desired value applied (the application's listeners: CustomChannels). */
  desiredApplied?(key: string, value: Value): void;

  create(config: Channel): ChannelDriver {
    const channel = channelOf(config, this.types);
    const driver = new CustomDriver(channel, this);
    const value = this.pending.get(channel.key);
    if (value !== undefined && fitsCustomType(channel, value)) driver.set(value);
    this.drivers.set(channel.key, driver);
    return driver;
  }

  /** @internal */
  forget(driver: CustomDriver): void {
    if (this.drivers.get(driver.key) !== driver) return;
    this.drivers.delete(driver.key);
    const last = driver.sample();
    if (last !== undefined) this.pending.set(driver.key, last.value);
  }
}
