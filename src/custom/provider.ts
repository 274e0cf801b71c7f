/**
 * Custom channels (docs/agent.md): values that application code publishes, sampled
 * and reported like any other channel. `publish(key, value)` checks the value
 * against the channel's `customType` (boolean; number: an integer; decimal:
 * any finite number). A writable custom channel (`readOnly` false) takes
 * desired values: the new value becomes the channel's value and the
 * application's `onDesired` listener hears it (a throwing listener is logged
 * and the value is still applied). Read-only channels answer -EROFS.
 */
import type { ChannelDriver, ChannelDriverProvider, Sample, Value } from '../agent/driver.js';
import type { Channel, ChannelConfig, ChannelType, CustomChannel } from '../config/model.js';
import { Errno } from '../errno.js';
import { AgentError } from '../errors.js';
import type { Logger } from '../ports.js';

/** Values kept for channels not configured yet (the configuration is read after boot). */
const maxEarly = 64;

export type DesiredListener = (key: string, value: Value) => void;

/** Whether `value` fits `customType` (decisions 1). */
export function fitsCustomType(channel: Pick<CustomChannel, 'customType'>, value: Value): boolean {
  switch (channel.customType) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isInteger(value);
    case 'decimal':
      return typeof value === 'number' && !Number.isNaN(value);
  }
}

/** One custom channel: the fields it needs copied from the parsed channel (not kept: heap per channel on XS). */
class CustomDriver implements ChannelDriver {
  readonly key: string;
  readonly customType: CustomChannel['customType'];
  private readonly readOnly: boolean;
  /** The published value as a sample; made at the first value and reused. */
  private current: { ok: true; value: Value } | undefined;

  constructor(
    channel: CustomChannel,
    private readonly owner: CustomChannels,
  ) {
    this.key = channel.key;
    this.customType = channel.customType;
    this.readOnly = channel.readOnly;
  }

  set(value: Value): void {
    if (this.current === undefined) this.current = { ok: true, value };
    else this.current.value = value;
  }

  sample(): { ok: true; value: Value } | undefined {
    return this.current;
  }

  /** The agent answers -EROFS for read-only channels before calling this; checked again here. */
  applyDesired(value: Value): Sample {
    if (this.readOnly) return { ok: false, errno: Errno.EROFS };
    if (!fitsCustomType(this, value)) return { ok: false, errno: Errno.EINVAL };
    this.set(value);
    this.owner.notifyDesired(this.key, value);
    return { ok: true, value };
  }

  close(): void {
    this.owner.forget(this);
  }
}

/** The custom channel provider and the application's API to it. */
export class CustomChannels implements ChannelDriverProvider {
  readonly types: readonly ChannelType[] = ['custom'];
  private readonly drivers = new Map<string, CustomDriver>();
  /** Values published before their channel exists (config not read yet); applied at create. */
  private readonly early = new Map<string, Value>();
  private readonly listeners: DesiredListener[] = [];
  private configuredKeys: ReadonlySet<string> = new Set();

  constructor(private readonly logger: Logger) {}

  configure(config: ChannelConfig): void {
    this.configuredKeys = new Set(config.channels.filter((c) => c.type === 'custom').map((c) => c.key));
  }

  create(channel: Channel): ChannelDriver {
    if (channel.type !== 'custom') throw new AgentError('internal', `custom: not a custom channel: ${channel.type}`);
    const driver = new CustomDriver(channel, this);
    const early = this.early.get(channel.key);
    if (early !== undefined && fitsCustomType(channel, early)) driver.set(early);
    this.drivers.set(channel.key, driver);
    return driver;
  }

  /**
   * Publishes the value of custom channel `key`; it is reported at the
   * channel's next scan (transmit events apply). Throws AgentError
   * `config.invalid` when the value does not fit the channel's customType or
   * the channel is not configured, `overflow` when too many unknown channels
   * are published before the configuration is known.
   */
  publish(key: string, value: Value): void {
    const driver = this.drivers.get(key);
    if (driver === undefined) {
      if (this.configuredKeys.size > 0 && !this.configuredKeys.has(key)) {
        throw new AgentError('config.invalid', `custom channel "${key}" is not configured`);
      }
      if (!this.early.has(key) && this.early.size >= maxEarly) {
        throw new AgentError('overflow', `custom: more than ${maxEarly} channels published before the configuration`);
      }
      this.early.set(key, value);
      return;
    }
    if (!fitsCustomType(driver, value)) {
      throw new AgentError('config.invalid', `custom channel "${key}" takes ${driver.customType} values`);
    }
    driver.set(value);
  }

  /** Hears desired values accepted on writable custom channels. */
  onDesired(listener: DesiredListener): void {
    this.listeners.push(listener);
  }

  /** @internal */
  notifyDesired(key: string, value: Value): void {
    for (const listener of this.listeners) {
      try {
        listener(key, value);
      } catch (e) {
        this.logger.log('error', 'a custom desired listener threw', {
          key,
          reason: e instanceof Error ? e.message : String(e),
        });
      }
    }
  }

  /** @internal */
  forget(driver: CustomDriver): void {
    if (this.drivers.get(driver.key) === driver) {
      this.drivers.delete(driver.key);
      const last = driver.sample();
      if (last !== undefined) this.early.set(driver.key, last.value);
    }
  }
}
