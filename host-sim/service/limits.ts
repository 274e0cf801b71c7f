/**
 * Every limit of the local service's fair share (decisions 10, docs/service.md#limits)
 * in one table: what one token or one connection may cost. `startService` takes
 * overrides (`ServiceOptions.limits`); tests set small ones to reach a limit
 * quickly, the defaults are what the documentation and the OpenAPI document state.
 */

export interface ServiceLimits {
  /** A string property value at most this many UTF-8 bytes (413 naming the property beyond). */
  maxPropertyBytes: number;
  /** Property names defined for one device at most (an admin defining one more gets 400). */
  maxPropertiesPerDevice: number;
  /** A string state value at most this many UTF-8 bytes (400 naming the entry beyond). */
  maxStateStringBytes: number;
  /** An object measurement value at most this many bytes of JSON (400 naming the entry beyond). */
  maxMeasurementObjectBytes: number;
  /** Request budget of one access token: tokens added per second. */
  ratePerSecond: number;
  /** Request budget of one access token: the bucket's size (requests in a burst). */
  burst: number;
  /**
   * Refusals (429) of one token answered at once within one Retry-After after its first; each one past
   * this is held until that Retry-After ends, then answered (budget.ts).
   */
  refusalsBeforeHold: number;
  /** Open TCP connections (HTTP and hub) at most; beyond, 503 with `Retry-After` and close. */
  maxConnections: number;
  /** A request's headers must arrive within this (408 beyond): the time a client may spend unauthenticated. */
  headersTimeoutMs: number;
  /** `Retry-After` seconds of a 503 for a full service. */
  retryAfterFullSeconds: number;
  /** WebSocket pings answered per connection per second; beyond, the connection closes with 1008 (logged). */
  maxPingsPerSecond: number;
}

export const defaultLimits: Readonly<ServiceLimits> = {
  maxPropertyBytes: 4096,
  maxPropertiesPerDevice: 64,
  maxStateStringBytes: 1024,
  maxMeasurementObjectBytes: 1024,
  // The fleet's busiest device sends about 2 requests a second and the dashboard about 10 on a page
  // change; 100/s with a burst of 200 leaves them far from the limit.
  ratePerSecond: 100,
  burst: 200,
  // Requests already under way when the first 429 came, and an agent's other kinds of request (each
  // waits out Retry-After on its own), stay well under it; a flooder on four connections passes it
  // within milliseconds.
  refusalsBeforeHold: 16,
  maxConnections: 4096,
  headersTimeoutMs: 30_000,
  retryAfterFullSeconds: 1,
  maxPingsPerSecond: 20,
};

/** The defaults with the given overrides; throws RangeError on a limit that is not a positive number. */
export function resolveLimits(overrides: Partial<ServiceLimits> = {}): ServiceLimits {
  const limits = { ...defaultLimits, ...overrides };
  for (const [name, v] of Object.entries(limits)) {
    if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) {
      throw new RangeError(`limits.${name}: expected a positive number, got ${String(v)}`);
    }
  }
  return limits;
}

/** UTF-8 byte length of a string without allocating (surrogate pairs count 4). */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
