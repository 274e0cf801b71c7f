/**
 * The setup code's gate (decisions 11): `Authorization: Bearer <setup code>`
 * or 401; after 5 wrong codes every attempt inside the back-off window is 429
 * with `Retry-After`, and each such attempt (wrong, missing or even right: it
 * is not looked at) doubles the window, from 1 s up to an hour. Only the
 * setup code opens it; the comparison takes the same time for every code of
 * the same length. Time is the injected monotonic clock.
 */
import type { Clock } from '../ports.js';

/** Wrong codes allowed before the back-off. */
export const FreeAttempts = 5;
const MaxBackoffMs = 3_600_000;

export type GateOutcome =
  { open: true } | { open: false; status: 401 } | { open: false; status: 429; retryAfterS: number };

export class CodeGate {
  readonly #code: string;
  readonly #clock: Clock;
  #wrong = 0;
  #blockedUntilMs = 0;

  constructor(code: string, clock: Clock) {
    this.#code = code;
    this.#clock = clock;
  }

  /** Checks an `Authorization` header's value. */
  check(authorization: string | undefined): GateOutcome {
    const now = this.#clock.monotonicMs();
    if (this.#wrong >= FreeAttempts && now < this.#blockedUntilMs) {
      this.#penalize(now);
      return { open: false, status: 429, retryAfterS: Math.ceil((this.#blockedUntilMs - now) / 1000) };
    }
    const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
    if (match !== null && same(match[1] as string, this.#code)) return { open: true };
    this.#penalize(now);
    return { open: false, status: 401 };
  }

  #penalize(now: number): void {
    this.#wrong++;
    if (this.#wrong >= FreeAttempts)
      this.#blockedUntilMs = now + Math.min(MaxBackoffMs, 1000 * 2 ** (this.#wrong - FreeAttempts));
  }
}

/** Equality that does not stop at the first differing character. */
function same(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= a.charCodeAt(i % (a.length || 1)) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Alphabet of setup codes: no 0/O, 1/I/L, easy to read off a console and type on a phone. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/**
 * A setup code of `length` characters from the bytes of the platform's
 * cryptographic random source (never Math.random); rejection sampling keeps
 * every character equally likely.
 */
export function setupCode(randomBytes: (count: number) => Uint8Array, length = 8): string {
  let code = '';
  const limit = 256 - (256 % ALPHABET.length);
  while (code.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && code.length < length) code += ALPHABET[byte % ALPHABET.length];
    }
  }
  return code;
}
