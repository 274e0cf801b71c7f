/**
 * The XS side of the firmware-on-XS run (test/xs/firmware.mjs): the one place
 * where the fake Moddable host modules meet the Node host.
 *
 * - Commands go to the host through xsnap's synchronous `issueCommand` (JSON):
 *   open, write and close a TCP connection, mirror a preference write, log.
 * - Network events come back from the host in `deliver` (connected, data,
 *   end, error, sent), each to the fake socket that owns the connection id. A
 *   callback that throws there is not caught: the host's `evaluate` rejects,
 *   which is what "XS abort: unhandled exception" is on a device.
 * - Time is virtual: the host advances it with `step`, which runs the fake
 *   `timer` module's due timers in order. Nothing here reads the real clock.
 */

interface Host {
  issueCommand(message: ArrayBufferLike): ArrayBuffer;
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new () => { decode(bytes: ArrayBufferLike | Uint8Array): string };
}

const g = globalThis as unknown as Host;
export const encoder = new g.TextEncoder();
export const decoder = new g.TextDecoder();
const issue = g.issueCommand;

/** Sends one command; returns the host's JSON answer (undefined for none). */
export function command(message: Record<string, unknown>): unknown {
  const bytes = encoder.encode(JSON.stringify(message));
  const answer = decoder.decode(issue(bytes.slice().buffer));
  return answer === '' ? undefined : (JSON.parse(answer) as unknown);
}

/** Bytes to a JSON-safe string, one char per byte (and back). */
export function toLatin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 4096) {
    text += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 4096)));
  }
  return text;
}

export function fromLatin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

export interface NetEvent {
  id: number;
  e: 'connected' | 'data' | 'end' | 'error' | 'sent' | 'accept';
  data?: string;
  reason?: string;
  /** For `accept`: the port the listener asked for (the host listens on a port of its own, port 0). */
  port?: number;
}

/** Receivers of network events by connection id (the fake sockets). */
const receivers = new Map<number, (event: NetEvent) => void>();
let nextId = 1;

export function openConnection(receiver: (event: NetEvent) => void): number {
  const id = nextId++;
  receivers.set(id, receiver);
  return id;
}

export function forgetConnection(id: number): void {
  receivers.delete(id);
}

/** Listeners by the port they asked for: each gets the id of a connection the host accepted. */
const listeners = new Map<number, (id: number) => void>();

/** Asks the host to listen for `port` (it listens on port 0 and maps it); `accept` gets each connection's id. */
export function listen(port: number, accept: (id: number) => void): void {
  if (listeners.has(port)) throw new Error('address in use');
  listeners.set(port, accept);
  command({ t: 'listen', port });
}

export function unlisten(port: number): void {
  if (listeners.delete(port)) command({ t: 'unlisten', port });
}

/** Receives the events of a connection the host accepted (`id` chosen by the host). */
export function adoptConnection(id: number, receiver: (event: NetEvent) => void): void {
  receivers.set(id, receiver);
}

/** Called by the host with a batch of events; whatever a callback throws propagates (an abort). */
export function deliver(events: readonly NetEvent[]): void {
  for (const event of events) {
    if (event.e === 'accept') listeners.get(event.port ?? -1)?.(event.id);
    else receivers.get(event.id)?.(event);
  }
}

// --- virtual time ---------------------------------------------------------

interface VirtualTimer {
  id: number;
  /** Infinity while unscheduled (`Timer.schedule(timer)`). */
  dueMs: number;
  /** 0: a one-shot, cleared when its callback returns; -1: unscheduled. */
  repeatMs: number;
  callback: (timer: unknown) => void;
  handle: object;
}

export const time = {
  /** Virtual milliseconds since boot (`Time.ticks`). */
  nowMs: 0,
  /** Wall clock at nowMs = 0, Unix milliseconds (`Time.set` moves it). */
  wallBaseMs: 0,
};

const timers: VirtualTimer[] = [];
let timerIds = 1;
/** SDK timers made (`Timer.set`, `Timer.repeat`) since boot: a reused timer is made once. */
export const timerCounts = { made: 0 };

export function addTimer(callback: (timer: unknown) => void, delayMs: number, repeatMs: number, handle: object): void {
  removeTimer(handle);
  timerCounts.made++;
  timers.push({ id: timerIds++, dueMs: time.nowMs + Math.max(0, delayMs), repeatMs, callback, handle });
}

export function removeTimer(handle: object): void {
  const at = timers.findIndex((t) => t.handle === handle);
  if (at >= 0) timers.splice(at, 1);
}

/**
 * `Timer.schedule` as the SDK's (modules/base/timer, mc): without a delay the
 * timer is unscheduled (kept, never fires); with one it fires after `delayMs`,
 * then every `repeatMs`, or once when the repeat is 0. A timer already cleared
 * (a one-shot that fired) throws, as the SDK's host-data check does.
 */
export function scheduleTimer(handle: object, delayMs?: number, repeatMs = 0): void {
  // An indexed loop, no closure: the slot meter checks that arming allocates nothing.
  let t: VirtualTimer | undefined;
  for (let i = 0; i < timers.length && t === undefined; i++) if (timers[i]!.handle === handle) t = timers[i];
  if (t === undefined) throw new Error('Timer.schedule: not a live timer');
  if (delayMs === undefined) {
    t.dueMs = Infinity;
    t.repeatMs = -1;
    return;
  }
  t.id = timerIds++;
  t.dueMs = time.nowMs + Math.max(0, delayMs);
  t.repeatMs = repeatMs;
}

function nextTimer(): VirtualTimer | undefined {
  let next: VirtualTimer | undefined;
  for (const t of timers)
    if (
      t.dueMs !== Infinity &&
      (next === undefined || t.dueMs < next.dueMs || (t.dueMs === next.dueMs && t.id < next.id))
    )
      next = t;
  return next;
}

/**
 * Advances virtual time by at most `ms`: to the earliest timer due in that span,
 * which runs alone (the host ends the crank after it, so promise jobs run between
 * two timers as they do on a device), or to now + ms when none is due.
 * As on a board, a repeating timer's next time is set before its callback, and
 * a timer whose repeat is 0 when its callback returns is cleared (even if the
 * callback re-armed it with `Timer.schedule(timer, delay)`).
 * Returns the virtual time of the next timer, or -1 when there is none.
 */
export function step(ms: number): number {
  const t = nextTimer();
  if (t !== undefined && t.dueMs <= time.nowMs + ms) {
    time.nowMs = Math.max(time.nowMs, t.dueMs);
    if (t.repeatMs > 0) t.dueMs = time.nowMs + t.repeatMs;
    try {
      t.callback(t.handle);
    } finally {
      if (t.repeatMs === 0) removeTimer(t.handle);
    }
  } else {
    time.nowMs += ms;
  }
  return nextTimer()?.dueMs ?? -1;
}
