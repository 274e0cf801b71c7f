/**
 * The Modbus RTU master of one serial bus: one transaction at a time, from a
 * bounded queue, each preceded by the 3.5-character silent interval, answered
 * within a response timeout, retried, and ended with data or an error number
 * (decisions.md section 4). Everything runs on the injected Clock.
 *
 * A response's end is found from its length (function code and byte count) and
 * then its CRC is checked; host UARTs and USB adapters deliver bytes in chunks
 * with their own latency, so gaps inside a response are not held against it.
 * Bytes that arrive while no request is outstanding are dropped and counted.
 *
 * Absence. Each unit address is unknown until it first answers anything
 * believable (data, an echo or an exception), then present. A request that
 * gets no believable answer in all its attempts ("silent"):
 * - from a present device reports -ETIMEDOUT; after 3 silent requests in a row
 *   the device becomes absent;
 * - from an unknown device (never answered since the bus opened) makes it
 *   absent at once;
 * - from an absent device reports -ENODEV. Absent devices get one attempt per
 *   request, no retries, so that they cost the rest of the bus one response
 *   timeout per scan at most. Any believable answer makes the device present.
 * Garbled answers (bad CRC, wrong length) in every attempt report -EIO: the
 * line is bad but something is there.
 */
import { Errno } from '../errno.js';
import type { Clock, Logger, SerialPort, TimerHandle } from '../ports.js';
import { checkResponse, encodeRequest, exceptionErrno, expectedResponseLength } from './frames.js';
import { MAX_ADU_BYTES, type ModbusRequest } from './frames.js';

/** The end of one transaction. Read data is a fresh copy of the window. */
export type ModbusResult = { ok: true; data: Uint8Array } | { ok: false; errno: number; reason: string };

export interface MasterOptions {
  /** The 3.5-character silent interval (src/modbus/timing.ts). */
  silentIntervalMs: number;
  /** Time on the line per character, to know when a request has left. */
  characterMs: number;
  /** Wait for a response after the request has left. Default 300. */
  responseTimeoutMs?: number;
  /** Further attempts after the first. Default 2. */
  retries?: number;
  /** Requests waiting at most. Default 32. */
  queueLimit?: number;
}

export interface MasterCounters {
  requests: number;
  attempts: number;
  timeouts: number;
  garbled: number;
  exceptions: number;
  overflows: number;
  strayBytes: number;
}

interface Pending {
  request: ModbusRequest;
  resolve: (result: ModbusResult) => void;
  attempt: number;
  garbled: boolean;
}

type State = 'idle' | 'silence' | 'awaiting' | 'closed';

/** Silent requests in a row after which a present device is declared absent. */
export const ABSENT_AFTER_SILENT_REQUESTS = 3;
// Presence of a unit: 0 unknown (the array's initial value), PRESENT or ABSENT.
const PRESENT = 1;
const ABSENT = 2;

export class ModbusMaster {
  readonly counters: MasterCounters = {
    requests: 0,
    attempts: 0,
    timeouts: 0,
    garbled: 0,
    exceptions: 0,
    overflows: 0,
    strayBytes: 0,
  };
  /** Per unit address: its presence, and its silent requests in a row. */
  private readonly presence = new Uint8Array(256);
  private readonly silentRuns = new Uint8Array(256);
  private state: State = 'idle';
  private readonly queue: Pending[] = [];
  private current: Pending | undefined;
  private timer: TimerHandle | undefined;
  private readonly tx = new Uint8Array(MAX_ADU_BYTES);
  private readonly rx = new Uint8Array(MAX_ADU_BYTES);
  private rxLength = 0;
  private lineFreeAtMs = Number.NEGATIVE_INFINITY;
  /** The options, defaults filled in. */
  private readonly options: Required<MasterOptions>;

  constructor(
    private readonly port: Pick<SerialPort, 'write'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: MasterOptions,
  ) {
    this.options = { responseTimeoutMs: 300, retries: 2, queueLimit: 32, ...options };
  }

  /** Queues a request; resolves when it ends (never rejects). */
  request(request: ModbusRequest): Promise<ModbusResult> {
    return new Promise((resolve) => {
      if (this.state === 'closed') return resolve({ ok: false, errno: Errno.EIO, reason: 'bus closed' });
      if (this.queue.length >= this.options.queueLimit) {
        this.counters.overflows++;
        return resolve({ ok: false, errno: Errno.EIO, reason: 'request queue full' });
      }
      this.counters.requests++;
      this.queue.push({ request, resolve, attempt: 0, garbled: false });
      if (this.state === 'idle') this.next();
    });
  }

  /** Feed of bytes from the serial port. */
  onData(bytes: Uint8Array): void {
    if (this.state !== 'awaiting' || this.current === undefined) {
      this.counters.strayBytes += bytes.length;
      return;
    }
    for (let i = 0; i < bytes.length && this.rxLength < MAX_ADU_BYTES; i++) this.rx[this.rxLength++] = bytes[i] ?? 0;
    this.lineFreeAtMs = this.clock.monotonicMs() + this.options.silentIntervalMs;
    const expected = expectedResponseLength(this.rx, this.rxLength);
    if (expected === 0 || this.rxLength < expected) {
      if (this.rxLength >= MAX_ADU_BYTES) this.endAttempt('garbled', 'response overflows 256 bytes');
      return;
    }
    this.complete(expected);
  }

  /** Ends every pending request with -EIO and stops. */
  close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    const all = this.current === undefined ? this.queue.splice(0) : [this.current, ...this.queue.splice(0)];
    this.current = undefined;
    for (const p of all) p.resolve({ ok: false, errno: Errno.EIO, reason: 'bus closed' });
  }

  private next(): void {
    if (this.state === 'closed') return;
    if (this.current === undefined) this.current = this.queue.shift();
    if (this.current === undefined) {
      this.state = 'idle';
      return;
    }
    this.state = 'silence';
    const waitMs = Math.max(0, this.lineFreeAtMs - this.clock.monotonicMs());
    this.timer = this.clock.setTimer(() => this.send(), waitMs);
  }

  private send(): void {
    const p = this.current;
    if (p === undefined || this.state !== 'silence') return;
    const length = encodeRequest(p.request, this.tx);
    this.rxLength = 0;
    this.state = 'awaiting';
    p.attempt++;
    this.counters.attempts++;
    const onLineMs = length * this.options.characterMs;
    this.lineFreeAtMs = this.clock.monotonicMs() + onLineMs + this.options.silentIntervalMs;
    this.timer = this.clock.setTimer(
      () => this.endAttempt('timeout', 'no answer'),
      onLineMs + this.options.responseTimeoutMs,
    );
    try {
      this.port.write(this.tx.subarray(0, length));
    } catch (e) {
      this.logger.log('warn', 'modbus: serial write failed', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  private complete(length: number): void {
    const p = this.current;
    if (p === undefined) return;
    const check = checkResponse(p.request, this.rx, length);
    if (check.kind === 'garbled') return this.endAttempt('garbled', check.reason);
    this.presence[p.request.unit] = PRESENT;
    this.silentRuns[p.request.unit] = 0;
    if (check.kind === 'exception') {
      this.counters.exceptions++;
      const reason = `exception ${check.code}`;
      return this.finish({ ok: false, errno: exceptionErrno(check.code), reason });
    }
    const data = check.kind === 'data' ? this.rx.slice(check.start, check.start + check.length) : new Uint8Array(0);
    this.finish({ ok: true, data });
  }

  private endAttempt(kind: 'timeout' | 'garbled', reason: string): void {
    const p = this.current;
    if (p === undefined) return;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    if (kind === 'timeout') this.counters.timeouts++;
    else {
      this.counters.garbled++;
      p.garbled = true;
    }
    const unit = p.request.unit;
    const retries = this.presence[unit] === ABSENT ? 0 : this.options.retries;
    if (p.attempt <= retries) {
      this.state = 'silence';
      this.next();
      return;
    }
    if (p.garbled) return this.finish({ ok: false, errno: Errno.EIO, reason });
    this.finish({ ok: false, errno: this.silent(unit), reason: `unit ${unit}: no answer` });
  }

  /** A whole request went unanswered: the unit's presence changes; returns the error number. */
  private silent(unit: number): number {
    const runs = Math.min(255, (this.silentRuns[unit] as number) + 1);
    this.silentRuns[unit] = runs;
    if (this.presence[unit] === PRESENT && runs < ABSENT_AFTER_SILENT_REQUESTS) return Errno.ETIMEDOUT;
    this.presence[unit] = ABSENT;
    return Errno.ENODEV;
  }

  private finish(result: ModbusResult): void {
    const p = this.current;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.current = undefined;
    this.state = 'idle';
    this.rxLength = 0;
    p?.resolve(result);
    this.next();
  }
}
