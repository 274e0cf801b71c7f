/**
 * Where the channel configuration comes from and when it is read
 * (docs/agent.md, "Configuration"): the service's `channels/list`, validated with
 * `parseChannelList`, and the last good copy in the store (the answer's text as
 * it came) so that the device boots and samples offline. An unchanged answer
 * (compared by a hash of its text) is not parsed, not applied again (the
 * channels' transmit state survives a no-op reload) and not written to the
 * store again (flash): a re-read holds the answer's text and nothing more.
 *
 * It is read at start, then every `periodMs` (each wait drawn from [0.75, 1] x
 * the period, so a fleet does not ask in step and a change is seen within one
 * period), when the hub reconnects and when the service refuses a batch. A read
 * that fails is retried with the agent's backoff (at least a 429's or 503's
 * `Retry-After`) until one succeeds (the first failure is a warning, each retry
 * a debug line); then the periodic refresh resumes. A refused token (401, 403)
 * or an unknown device (404) is one error line naming the fix and `onRefused`,
 * then a retry every `authRetryMs` (docs/troubleshooting.md). Calls
 * while a read is under way join it. One timer, on the injected clock.
 */
import type { ChannelConfig } from '../config/model.js';
import { parseChannelList } from '../config/parse.js';
import { info, logFailure, toAgentError, waitAfter } from '../errors.js';
import type { ReusableTimer } from '../ports.js';
import type { RetryPolicy } from '../retry/backoff.js';
import type { ServiceClient } from '../service/client.js';
import { readJson } from '../reader.js';
import { Paths } from '../wire.js';
import type { AgentOptions } from './agent-options.js';
import { hashText, type ChannelSet } from './channel-set.js';

/** The agent's options (clock, logger, store, refresh period and jitter source) and what the agent gives. */
export interface FollowerContext extends Pick<
  AgentOptions,
  'clock' | 'logger' | 'store' | 'configRefreshMs' | 'random' | 'authRetryMs' | 'onRefused'
> {
  readonly retry: RetryPolicy;
  readonly client: ServiceClient;
  /** Runs a configuration that differs from the one in use (`apply`). */
  readonly channels: Pick<ChannelSet, 'apply'>;
  /** After every successful read (device and properties follow it). */
  readonly loaded: () => Promise<void>;
}

const storeKey = 'agent/channels';

export class ConfigFollower {
  /** The one timer (re-armed): a nudge `#why` when it fires. */
  readonly #timer: ReusableTimer;
  #why = '';
  /** Failed reads in a row. */
  #failures = 0;
  /** The service refused the token or the device since the last good read (logged once). */
  #refused = false;
  #reading: Promise<void> | undefined;
  #running = false;
  /** Hash of the configuration text in use (a number, not the text). */
  #hash: number | undefined;
  readonly #c: FollowerContext;

  constructor(context: FollowerContext) {
    this.#c = context;
    this.#timer = context.clock.timer(() => void this.nudge(this.#why));
  }

  /** Runs the cached configuration (if any), then reads the service's; resolves after the first attempt. */
  start(): Promise<void> {
    const c = this.#c;
    this.#running = true;
    try {
      const text = c.store.get(storeKey);
      if (text !== undefined) {
        this.#use(hashText(text), parseChannelList(JSON.parse(text) as unknown, true));
        info(c.logger, 'starting from the cached configuration');
      }
    } catch (e) {
      // A corrupt copy is ignored: the service's is read as usual.
      logFailure(c.logger, 'warn', 'cached configuration unreadable', e, { key: storeKey });
    }
    return this.nudge('start');
  }

  /** Reads now (joins a read under way). Rejects when `channels/list` cannot be read or parsed. */
  read(): Promise<void> {
    return (this.#reading ??= this.#load().finally(() => (this.#reading = undefined)));
  }

  /** Reads because something suggests a change; a failure is retried with backoff, not thrown. */
  async nudge(why: string): Promise<void> {
    if (!this.#running) return;
    await this.read().catch((e: unknown) => {
      const c = this.#c;
      const status = toAgentError(e).status;
      // A refused token (401), or a device this token may not name (403: unknown or another's, decisions 10;
      // 404 with an admin token) is no outage that passes: one
      // error line naming the cause and the fix, then retries with the long wait (a board never gives up).
      if (status === 401 || status === 403 || status === 404) {
        if (!this.#refused) {
          const what = status === 401 ? 'token refused; set the right token' : 'device unknown; check the device key';
          logFailure(c.logger, 'error', `config: ${what} and restart`, e, { status });
          c.onRefused?.(status);
        }
        this.#refused = true;
        return this.#arm(c.authRetryMs ?? 300000, 'retry');
      }
      // The first failure is a warning; each retry that fails again only a debug line.
      logFailure(c.logger, this.#failures++ === 0 ? 'warn' : 'debug', `config: not read (${why})`, e);
      this.#arm(waitAfter(toAgentError(e), c.retry.nextDelayMs(this.#failures) ?? 60000), 'retry');
    });
  }

  stop(): void {
    this.#running = false;
    this.#timer.unschedule();
  }

  async #load(): Promise<void> {
    const c = this.#c;
    // The text goes straight to #take: an async function keeps every local of its frame until it returns, and
    // the text and its parse (the boot's largest objects) must not live on through `loaded()`.
    if (!this.#take(await c.client.textOfDevice(Paths.channelsList))) return;
    const periodMs = c.configRefreshMs ?? 300000;
    if (periodMs > 0) this.#arm(Math.floor(periodMs * (0.75 + 0.25 * (c.random ?? Math.random)())), 'refresh');
    await c.loaded();
  }

  /** Applies a `channels/list` answer's text read (a changed one is parsed and cached); false when stopped meanwhile. */
  #take(text: string): boolean {
    const hash = hashText(text);
    const config = hash === this.#hash ? undefined : parseChannelList(readJson(text, Paths.channelsList), true);
    this.#failures = 0;
    this.#refused = false;
    if (!this.#running) return false;
    if (config) {
      this.#use(hash, config);
      // Cached once applied: the channels it replaced are garbage by then, so a board's heap never holds them
      // beside the text and its copy for the flash.
      try {
        this.#c.store.set(storeKey, text);
      } catch (e) {
        logFailure(this.#c.logger, 'warn', 'config: not cached', e);
      }
    }
    return true;
  }

  #use(hash: number, config: ChannelConfig): void {
    this.#hash = hash;
    this.#c.channels.apply(config);
  }

  /** Re-arms the one timer (replacing its arming): a nudge `why` after `delayMs`; stopped, it stays disarmed. */
  #arm(delayMs: number, why: string): void {
    this.#why = why;
    if (this.#running) this.#timer.schedule(delayMs);
  }
}
