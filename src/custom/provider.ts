/**
 * The application's API to custom channels (docs/agent.md): `publish(key,
 * value)` sets a custom channel's value, reported at the channel's next scan
 * like any other channel; `onDesired` listeners hear the desired values a
 * writable channel takes (a throwing listener is logged; the value is still
 * applied). Values published before the configuration is read
 * are kept (at most 64 channels) and applied when their channel is created. A
 * composition root with application code (the Node agent, the simulator) links
 * this; the board firmware, which has none, links only the drivers (drivers.ts).
 */
import type { Value } from '../agent/driver.js';
import type { ChannelConfig } from '../config/model.js';
import { AgentError } from '../errors.js';
import type { Logger } from '../ports.js';
import { CustomChannelDrivers, fitsCustomType } from './drivers.js';

export { fitsCustomType } from './drivers.js';

export type DesiredListener = (key: string, value: Value) => void;

/** Values kept for channels not configured yet (the configuration is read after boot). */
const maxEarly = 64;

export class CustomChannels extends CustomChannelDrivers {
  #configured: ReadonlySet<string> = new Set();
  readonly #listeners: DesiredListener[] = [];
  readonly #logger: Logger;

  constructor(logger: Logger) {
    super();
    this.#logger = logger;
  }

  configure(config: ChannelConfig): void {
    this.#configured = new Set(config.channels.filter((c) => c.type === 'custom').map((c) => c.key));
  }

  /**
   * Publishes the value of custom channel `key`. Throws AgentError
   * `config.invalid` when the value does not fit the channel's customType or
   * the channel is not configured, `overflow` when too many unknown channels
   * are published before the configuration is known.
   */
  publish(key: string, value: Value): void {
    const driver = this.drivers.get(key);
    if (driver === undefined) {
      if (this.#configured.size > 0 && !this.#configured.has(key))
        throw new AgentError('config.invalid', `custom ${key}: not configured`);
      if (!this.pending.has(key) && this.pending.size >= maxEarly)
        throw new AgentError('overflow', `custom: over ${maxEarly} channels before the configuration`);
      this.pending.set(key, value);
    } else if (fitsCustomType(driver, value)) driver.set(value);
    else throw new AgentError('config.invalid', `custom ${key}: expected ${driver.customType}`);
  }

  /** Hears desired values accepted on writable custom channels. */
  onDesired(listener: DesiredListener): void {
    this.#listeners.push(listener);
  }

  override desiredApplied(key: string, value: Value): void {
    for (const listener of this.#listeners) {
      try {
        listener(key, value);
      } catch (e) {
        this.#logger.log('error', 'custom: listener threw', { key, reason: String(e) });
      }
    }
  }
}
