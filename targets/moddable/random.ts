/**
 * Random bytes for the setup code (decisions 11: the platform's cryptographic
 * random source, never Math.random), from the SDK's `rng` module (the one its
 * TLS uses). On an ESP32 `rng` is seeded from the hardware generator
 * (`esp_random`). The desktop simulator has no such source: its `rng` seeds
 * from the C library's unseeded `rand()`, the same at every launch, like
 * Math.random. There (manifest `config.stirRandom`, lin/mac/win only) the
 * generator is re-seeded from a pool kept in preferences, mixed with the wall
 * clock and the tick count, and the pool is renewed from the generator at each
 * boot: the codes differ from boot to boot, though a simulator is no source of
 * secrets.
 */
import config from 'mc/config';
import Preference from 'preference';
import RNG from 'rng';
import Time from 'time';

const POOL_DOMAIN = 'rng';

let stirred = false;

/** `count` random bytes. */
export function randomBytes(count: number): Uint8Array {
  if ((config as Record<string, unknown>).stirRandom === true && !stirred) stir();
  return new Uint8Array(RNG.get(count));
}

function stir(): void {
  stirred = true;
  const kept = Preference.get(POOL_DOMAIN, 'pool');
  const pool = new Uint8Array(32);
  if (kept instanceof ArrayBuffer) pool.set(new Uint8Array(kept).subarray(0, 32));
  const now = `${Date.now()}:${Time.ticks}`;
  for (let i = 0; i < now.length; i++) pool[i % 32] = ((pool[i % 32] as number) * 31 + now.charCodeAt(i)) & 0xff;
  RNG.init(pool.buffer);
  Preference.set(POOL_DOMAIN, 'pool', RNG.get(32));
}
