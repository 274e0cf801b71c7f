/**
 * The host capabilities the core needs, and nothing more.
 *
 * Each port is small and shaped like ECMA-419 (options in; read/write/close;
 * handlers for readable data and errors), so that the Moddable adapters are
 * nearly pass-throughs and the Node adapters and test fakes stay small.
 * The core never constructs a platform object: composition roots
 * (targets/*, host-sim) build these and pass them in.
 */
import type { AgentError } from './errors.js';

/** Opaque handle of a scheduled timer. */
export interface TimerHandle {
  readonly timerHandle?: never;
}

/**
 * Time. Monotonic time drives every interval, timeout and backoff; wall time is
 * only for stamping records and may be wrong until the core learns the real time
 * (a fresh ESP32 boots in 1970). See src/time/wall-time.ts.
 */
export interface Clock {
  /** Milliseconds since an arbitrary origin; never goes backwards. */
  monotonicMs(): number;
  /** The host's wall clock, Unix milliseconds; may be unset (near 0) or wrong. */
  wallMs(): number;
  /** Calls `callback` once after `delayMs` milliseconds of monotonic time. */
  setTimer(callback: () => void, delayMs: number): TimerHandle;
  /** Cancels a timer; undefined (no timer), or a handle that already fired or was cleared, is ignored. */
  clearTimer(handle: TimerHandle | undefined): void;
  /**
   * A timer made once and armed again and again (the scheduler's wake-up): on a
   * board, arming it allocates nothing (Moddable's `Timer.schedule`), where
   * `setTimer` makes a host timer and a closure each time. Made disarmed.
   */
  timer(callback: () => void): ReusableTimer;
}

/** A timer that is re-armed rather than made anew (`Clock.timer`). */
export interface ReusableTimer {
  /** Calls the callback once after `delayMs` milliseconds, replacing an earlier arming. */
  schedule(delayMs: number): void;
  /** Disarms it; a disarmed timer never fires until `schedule` arms it again. */
  unschedule(): void;
}

/** A digital input pin (ECMA-419 `embedded:io/digital`, input mode). */
export interface DigitalInput {
  read(): boolean;
  close(): void;
}

/** A digital output pin. `read` returns the level the pin is driven to. */
export interface DigitalOutput {
  write(value: boolean): void;
  read(): boolean;
  close(): void;
}

/** An analog input (ECMA-419 `embedded:io/analog`): raw counts 0 .. 2^resolution - 1. */
export interface AnalogInput {
  readonly resolution: number;
  read(): number;
  close(): void;
}

/** A PWM output (ECMA-419 `embedded:io/pwm`): duty in counts 0 .. 2^resolution - 1. */
export interface PwmOutput {
  readonly resolution: number;
  write(value: number): void;
  /** The duty last written (read back). */
  read(): number;
  close(): void;
}

/** Opens pins by number. Throws AgentError `pin.unavailable` when a pin cannot be opened. */
export interface Pins {
  digitalInput(options: { pin: number }): DigitalInput;
  digitalOutput(options: { pin: number }): DigitalOutput;
  analogInput(options: { pin: number }): AnalogInput;
  pwmOutput(options: { pin: number }): PwmOutput;
}

export type Parity = 'none' | 'odd' | 'even' | 'mark' | 'space';
export type StopBits = 'none' | 'one' | 'two' | 'onePointFive';

/** Settings of a serial line (ECMA-419 `embedded:io/serial`). */
export interface SerialOptions {
  /** Board-level port name or number (e.g. UART 2, or /dev/ttyUSB0 on a gateway). */
  port: string | number;
  baudRate: number;
  dataBits?: 5 | 6 | 7 | 8;
  parity?: Parity;
  stopBits?: StopBits;
  /** RS-485 direction (driver enable) pin, driven high while transmitting. */
  directionPin?: number;
}

export interface SerialHandlers {
  /** Bytes as they arrive; the array may be reused after the call returns. */
  onData(bytes: Uint8Array): void;
  onError?(error: AgentError): void;
}

export interface SerialPort {
  write(bytes: Uint8Array): void;
  close(): void;
}

export interface Serial {
  open(options: SerialOptions, handlers: SerialHandlers): SerialPort;
}

/** One CAN frame: 11-bit (standard) or 29-bit (extended) identifier, 0..8 data bytes. */
export interface CanFrame {
  id: number;
  extended: boolean;
  data: Uint8Array;
}

export interface CanHandlers {
  onFrame(frame: CanFrame): void;
  onError?(error: AgentError): void;
}

export interface CanPort {
  send(frame: CanFrame): void;
  close(): void;
}

export interface Can {
  open(options: { bus: string; bitrate: number }, handlers: CanHandlers): CanPort;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Absolute URL, already encoded. */
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  /**
   * The answer's body is wanted as bytes (`HttpResponse.bytes`), e.g. a chunk of
   * a firmware image; `HttpResponse.body` is then ''.
   */
  binary?: boolean;
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  body: string;
  /** The body as bytes, present only when the request asked for `binary`. */
  bytes?: Uint8Array;
}

/**
 * One HTTP exchange. Resolves with any status (non-2xx included); rejects only
 * when no response arrived, with AgentError code `network` (or `tls` for a failed
 * certificate check).
 */
export interface HttpTransport {
  request(request: HttpRequest): Promise<HttpResponse>;
}

export interface WebSocketHandlers {
  onOpen(): void;
  /** One complete text message. */
  onMessage(data: string): void;
  /** Called once when the socket is closed, by either side or by a failure. */
  onClose(reason: string): void;
}

export interface WebSocketConnection {
  send(data: string): void;
  close(): void;
}

/** Opens a WebSocket client connection (text frames only). */
export interface WebSocketFactory {
  connect(url: string, headers: Readonly<Record<string, string>>, handlers: WebSocketHandlers): WebSocketConnection;
}

/**
 * A small persistent key-value store (Moddable `preference` or flash files; a
 * directory of files on Node). Writes are durable when `set` returns.
 */
export interface KeyValueStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  delete(key: string): void;
  /** Keys starting with `prefix`, in ascending order. */
  keys(prefix: string): string[];
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/** Structured log lines. Adapters must never throw. */
export interface Logger {
  log(level: LogLevel, message: string, fields?: LogFields): void;
}
