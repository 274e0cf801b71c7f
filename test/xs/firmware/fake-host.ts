/**
 * Fakes of the small Moddable host modules the firmware links: `timer`, `time`,
 * `preference`, `Resource`, `sntp`, `embedded:io/serial` and `mc/config`, on
 * the virtual clock and the host channel of bridge.ts.
 */
import { addTimer, command, removeTimer, scheduleTimer, time } from './bridge.js';

type TimerCallback = (timer: unknown) => void;

/** `timer`: set, repeat, schedule, clear; callbacks get the timer; virtual time. */
export class Timer {
  static set(callback: TimerCallback, delayMs = 0, repeatMs = 0): object {
    const handle = {};
    addTimer(callback, delayMs, repeatMs, handle);
    return handle;
  }
  static repeat(callback: TimerCallback, intervalMs: number): object {
    return Timer.set(callback, intervalMs, intervalMs);
  }
  /** Re-arms (`delayMs`, `repeatMs`) or, without a delay, unschedules a live timer. */
  static schedule(handle: object, delayMs?: number, repeatMs?: number): void {
    scheduleTimer(handle, delayMs, repeatMs);
  }
  static clear(handle: unknown): void {
    if (typeof handle === 'object' && handle !== null) removeTimer(handle);
  }
  static delay(_ms: number): never {
    throw new Error('Timer.delay blocks the machine: not used by the firmware');
  }
}

/** `time`: `ticks` (milliseconds, monotonic), `set(seconds)` sets the wall clock. */
export class Time {
  static get ticks(): number {
    return time.nowMs;
  }
  static set(seconds: number): void {
    time.wallBaseMs = seconds * 1000 - time.nowMs;
    command({ t: 'time.set', seconds });
  }
}

/**
 * `preference` with the ESP32 NVS rules: domain and key at most 15 characters,
 * values boolean, integer, string or ArrayBuffer (a copy is stored and
 * returned), a partition of `capacity` bytes (a write that does not fit throws,
 * as nvs_set does). Every write is mirrored to the host, which keeps the flash
 * across a reboot and counts the bytes written.
 */
const NVS_ENTRY_BYTES = 32;
export const flash: { capacity: number; entries: Map<string, unknown> } = { capacity: 24 * 1024, entries: new Map() };

function entryBytes(value: unknown): number {
  const size = value instanceof ArrayBuffer ? value.byteLength : typeof value === 'string' ? value.length + 1 : 8;
  return NVS_ENTRY_BYTES * (1 + Math.ceil(size / NVS_ENTRY_BYTES));
}

function checkName(kind: string, name: string): void {
  if (typeof name !== 'string' || name.length === 0 || name.length > 15) throw new Error(`invalid ${kind}`);
}

export class Preference {
  static set(domain: string, key: string, value: unknown): void {
    checkName('domain', domain);
    checkName('key', key);
    let stored: unknown;
    if (value instanceof ArrayBuffer) stored = value.slice(0);
    else if (typeof value === 'boolean' || typeof value === 'string') stored = value;
    else if (typeof value === 'number' && Number.isInteger(value)) stored = value;
    else throw new Error('invalid value');
    const name = `${domain}\u0000${key}`;
    let used = 0;
    for (const [n, v] of flash.entries) if (n !== name) used += entryBytes(v);
    if (used + entryBytes(stored) > flash.capacity) throw new Error('nvs_set failed');
    flash.entries.set(name, stored);
    const data = stored instanceof ArrayBuffer ? { buffer: toLatin1(new Uint8Array(stored)) } : { value: stored };
    command({ t: 'pref.set', domain, key, bytes: entryBytes(stored), ...data });
  }
  static get(domain: string, key: string): unknown {
    const value = flash.entries.get(`${domain}\u0000${key}`);
    return value instanceof ArrayBuffer ? value.slice(0) : value;
  }
  static delete(domain: string, key: string): void {
    if (flash.entries.delete(`${domain}\u0000${key}`)) command({ t: 'pref.delete', domain, key });
  }
  static keys(domain: string): string[] {
    const out: string[] = [];
    for (const name of flash.entries.keys()) {
      const at = name.indexOf('\u0000');
      if (name.slice(0, at) === domain) out.push(name.slice(at + 1));
    }
    return out;
  }
}

function toLatin1(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return text;
}

/** `Resource`: read-only bytes by name; a missing one throws. */
export const resources = new Map<string, ArrayBuffer>();
export class Resource {
  constructor(path: string) {
    const bytes = resources.get(path);
    if (bytes === undefined) throw new Error(`Resource not found: ${path}`);
    return bytes.slice(0) as unknown as Resource;
  }
  static exists(path: string): boolean {
    return resources.has(path);
  }
}

/** `sntp`: no time server is reachable from a test machine; every attempt fails after 5 s. */
export class SNTP {
  static readonly time = 1;
  static readonly retry = 2;
  static readonly error = -1;
  constructor(_options: { host: string }, callback: (message: number, value?: number) => void) {
    Timer.set(() => callback(SNTP.error), 5_000);
  }
}

/** `embedded:io/serial`: the desktop simulator has no UART. */
export class Serial {
  constructor(options: { port?: number }) {
    throw new Error(`serial port ${String(options.port)} is not available`);
  }
}

/** `mc/config`: the manifest's config as mcconfig builds it (filled by the run). */
export const config: Record<string, unknown> = {};

/**
 * `rng` (the SDK's modules/crypt/etc/rng): `get(count)` returns an ArrayBuffer
 * of `count` bytes (here from the host's crypto.randomBytes), `init(seed)`
 * re-seeds (here: counted, so a test sees the simulator's stirring).
 */
export const rngSeeds: ArrayBuffer[] = [];
export const RNG = {
  get(count: number): ArrayBuffer {
    const answer = command({ t: 'random', count }) as { bytes: string };
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++) out[i] = answer.bytes.charCodeAt(i);
    return out.buffer;
  },
  init(seed?: ArrayBuffer): void {
    if (seed !== undefined) rngSeeds.push(seed.slice(0));
  },
};
