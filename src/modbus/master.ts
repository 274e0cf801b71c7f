/**
 * The Modbus RTU master of one serial bus: one transaction at a time, from a
 * bounded queue, each preceded by the 3.5-character silent interval, answered
 * within a response timeout, retried, and ended with data or an error number
 * (decisions.md section 4). Everything runs on the injected Clock.
 *
 * Reads share requests: a read queued while another of the same unit and
 * function code waits, and whose range touches or overlaps it, joins it (up to
 * the function code's quantity limit), so channels due at the same moment cost
 * as few requests as contiguous registers allow. Gaps are never bridged: a
 * device may answer an address it does not have with exception 02, which would
 * fail both channels. A read's data begins at the result's `address`.
 *
 * A response's end is found from its length (function code and byte count),
 * then its CRC is checked; gaps inside a response (USB adapters deliver bytes
 * in chunks) are not held against it. Bytes while no request waits are dropped.
 *
 * Absence. A unit is unknown until it first answers anything believable (data,
 * an echo or an exception), then present. A request with no believable answer
 * in all its attempts ("silent") reports -ETIMEDOUT from a present unit; after
 * 3 silent requests in a row, or at once from a unit never heard, the unit is
 * absent: -ENODEV, one attempt per request (no retries) until it answers.
 * Garbled answers in every attempt report -EIO: the line is bad but something
 * is there.
 */
import { failure, type Failure } from '../codec/field.js';
import { Errno } from '../errno.js';
import { messageOf, warn } from '../errors.js';
import type { Clock, Logger, SerialPort, TimerHandle } from '../ports.js';
import type { ModbusBus } from '../config/model.js';
import { characterMs, checkResponse, encodeRequest, exceptionErrno, expectedResponseLength } from './rtu.js';
import { EXCEPTION, GARBLED, MAX_ADU_BYTES, readLimit, silentIntervalMs, type ModbusRequest } from './rtu.js';

/** The end of a transaction; read data is a fresh copy that begins at register or coil `address`. */
export type ModbusResult = { ok: true; data: Uint8Array; address: number } | Failure;

/** The line settings that time a transaction. */
export type LineSettings = Pick<ModbusBus, 'baudRate' | 'dataBits' | 'parity' | 'stopBits'>;

/** Wait for a response after the request has left the line. */
export const RESPONSE_TIMEOUT_MS = 300;
/** Further attempts after the first. */
export const RETRIES = 2;
/** Requests waiting at most. */
export const QUEUE_LIMIT = 32;

interface Pending extends ModbusRequest {
  /** The requesters; several when reads joined. */
  done: ((result: ModbusResult) => void)[];
  attempt: number;
  /** Set once an attempt was answered with garbage. */
  garbled?: boolean;
}

/** Nothing to do; waiting out the silent interval before a request; awaiting its response; closed. */
const IDLE = 0;
const SILENCE = 1;
const AWAITING = 2;
const CLOSED_STATE = 3;

/** Silent requests in a row after which a present unit is declared absent. */
export const ABSENT_AFTER_SILENT_REQUESTS = 3;
const ABSENT = 255;
const CLOSED = failure(Errno.EIO, 'bus closed');
const QUEUE_FULL = failure(Errno.EIO, 'queue full');
const GARBLED_ANSWERS = failure(Errno.EIO, 'garbled answers');

export class ModbusMaster {
  /** Per unit address: 0 never answered, 1 + its silent requests in a row since it answered, or ABSENT. */
  readonly #health = new Uint8Array(256);
  #state = IDLE;
  readonly #queue: Pending[] = [];
  #current: Pending | undefined;
  #timer: TimerHandle | undefined;
  readonly #tx = new Uint8Array(MAX_ADU_BYTES);
  readonly #rx = new Uint8Array(MAX_ADU_BYTES);
  #rxLength = 0;
  #lineFreeAtMs = -Infinity;
  readonly #port: Pick<SerialPort, 'write' | 'close'>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  /** Time on the line per character, to know when a request has left. */
  readonly #characterMs: number;
  /** The 3.5-character silent interval. */
  readonly #silentMs: number;

  constructor(port: Pick<SerialPort, 'write' | 'close'>, clock: Clock, logger: Logger, line: LineSettings) {
    this.#port = port;
    this.#clock = clock;
    this.#logger = logger;
    this.#characterMs = characterMs(line);
    this.#silentMs = silentIntervalMs(line);
  }

  /** Queues a request; resolves when it ends (never rejects). */
  request(r: ModbusRequest): Promise<ModbusResult> {
    return new Promise((resolve) => {
      if (this.#state === CLOSED_STATE) return resolve(CLOSED);
      const queue = this.#queue;
      // A read joins a waiting read it touches; that read absorbs the others it then touches.
      let into: Pending | undefined;
      for (let i = 0; r.functionCode <= 4 && i < queue.length; i++) {
        const p = queue[i] as Pending;
        const a = into ?? r;
        const start = Math.min(p.address, a.address);
        const count = Math.max(p.address + p.count, a.address + a.count) - start;
        // Two ranges touch or overlap when together they span no more than apart.
        const touch = count <= p.count + a.count && count <= readLimit(r.functionCode);
        if (p.unit !== r.unit || p.functionCode !== r.functionCode || !touch) continue;
        if (into === undefined) {
          p.done.push(resolve);
          into = p;
        } else {
          into.done.push(...p.done);
          queue.splice(i--, 1);
        }
        into.address = start;
        into.count = count;
      }
      if (into !== undefined) return;
      if (queue.length >= QUEUE_LIMIT) return resolve(QUEUE_FULL);
      queue.push({ ...r, done: [resolve], attempt: 0 });
      if (this.#state === IDLE) this.#next();
    });
  }

  /** Feed of bytes from the serial port. */
  onData(bytes: Uint8Array): void {
    if (this.#state !== AWAITING) return;
    const rx = this.#rx;
    for (let i = 0; i < bytes.length && this.#rxLength < MAX_ADU_BYTES; i++) rx[this.#rxLength++] = bytes[i]!;
    this.#lineFreeAtMs = this.#clock.monotonicMs() + this.#silentMs;
    const expected = expectedResponseLength(rx, this.#rxLength);
    const complete = expected !== 0 && this.#rxLength >= expected;
    if (!complete && this.#rxLength < MAX_ADU_BYTES) return;
    // The attempt ends here, not at its timeout: a full buffer that is no answer counts as a garbled one.
    this.#stopTimer();
    const n = complete ? checkResponse(this.#tx, rx, expected) : GARBLED;
    if (n === GARBLED) return this.#endAttempt(true);
    const p = this.#current as Pending;
    this.#health[p.unit] = 1;
    const code = rx[2]!;
    this.#finish(
      n === EXCEPTION
        ? failure(exceptionErrno(code), `exception ${code}`)
        : { ok: true, data: rx.slice(3, 3 + n), address: p.address },
    );
  }

  /** Ends every pending request with -EIO, stops and closes the port. */
  close(): void {
    if (this.#state === CLOSED_STATE) return;
    this.#state = CLOSED_STATE;
    this.#stopTimer();
    this.#port.close();
    for (const p of [...this.#queue.splice(0), this.#current]) for (const done of p?.done ?? []) done(CLOSED);
  }

  #next(): void {
    if ((this.#current ?? this.#queue[0]) === undefined) {
      this.#state = IDLE;
      return;
    }
    this.#state = SILENCE;
    const waitMs = Math.max(0, this.#lineFreeAtMs - this.#clock.monotonicMs());
    // The silent interval over (close stops this timer): the request goes out.
    this.#timer = this.#clock.setTimer(() => {
      const p = (this.#current ??= this.#queue.shift() as Pending);
      const length = encodeRequest(p, this.#tx);
      this.#rxLength = 0;
      this.#state = AWAITING;
      p.attempt++;
      const onLineMs = length * this.#characterMs;
      this.#lineFreeAtMs = this.#clock.monotonicMs() + onLineMs + this.#silentMs;
      this.#timer = this.#clock.setTimer(() => this.#endAttempt(false), onLineMs + RESPONSE_TIMEOUT_MS);
      try {
        this.#port.write(this.#tx.subarray(0, length));
      } catch (e) {
        warn(this.#logger, `modbus: write failed: ${messageOf(e)}`);
      }
    }, waitMs);
  }

  /** An attempt ended without a believable answer (its timer has fired or was stopped). */
  #endAttempt(garbled: boolean): void {
    const p = this.#current as Pending;
    p.garbled ||= garbled;
    const unit = p.unit;
    const health = this.#health[unit]!;
    if (p.attempt <= (health === ABSENT ? 0 : RETRIES)) return this.#next();
    if (p.garbled) return this.#finish(GARBLED_ANSWERS);
    const present = health > 0 && health < ABSENT_AFTER_SILENT_REQUESTS;
    this.#health[unit] = present ? health + 1 : ABSENT;
    this.#finish(failure(present ? Errno.ETIMEDOUT : Errno.ENODEV, `unit ${unit}: no answer`));
  }

  #stopTimer(): void {
    this.#clock.clearTimer(this.#timer);
  }

  #finish(result: ModbusResult): void {
    const p = this.#current as Pending;
    this.#current = undefined;
    for (const done of p.done) done(result);
    this.#next();
  }
}
