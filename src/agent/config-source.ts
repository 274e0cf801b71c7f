/**
 * Where the channel configuration comes from (docs/agent.md, "Configuration"): the
 * service's `channels/list`, validated with `parseChannelList`, and the last
 * good copy in the store so that the device boots and samples offline. The raw
 * body is kept as text: an unchanged configuration is recognised and does not
 * restart the channels (their transmit state survives a no-op reload).
 */
import { parseChannelList } from '../config/parse.js';
import type { ChannelConfig } from '../config/model.js';
import type { KeyValueStore, Logger } from '../ports.js';
import type { ServiceClient } from '../service/client.js';

export interface LoadedConfig {
  /** Canonical JSON text of the `channels/list` body. */
  text: string;
  config: ChannelConfig;
}

const storeKey = 'agent/channels';

export class ConfigSource {
  constructor(
    private readonly client: ServiceClient,
    private readonly store: KeyValueStore,
    private readonly logger: Logger,
  ) {}

  /** The last good configuration from the store, if any (a corrupt copy is logged and ignored). */
  cached(): LoadedConfig | undefined {
    let text: string | undefined;
    try {
      text = this.store.get(storeKey);
      if (text === undefined) return undefined;
      return { text, config: parseChannelList(JSON.parse(text) as unknown) };
    } catch (e) {
      this.logger.log('warn', 'cached configuration unreadable; ignored', {
        key: storeKey,
        reason: e instanceof Error ? e.message : String(e),
      });
      return undefined;
    }
  }

  /**
   * Reads `channels/list` and caches it. Rejects with AgentError (network,
   * auth, http.status, wire.invalid) and then keeps the cached copy.
   */
  async fetch(): Promise<LoadedConfig> {
    const body = await this.client.channelsList();
    const config = parseChannelList(body);
    const text = JSON.stringify(body);
    try {
      this.store.set(storeKey, text);
    } catch (e) {
      this.logger.log('warn', 'configuration not cached (store refused it)', {
        reason: e instanceof Error ? e.message : String(e),
      });
    }
    return { text, config };
  }
}
