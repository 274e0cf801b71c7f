/**
 * The simulated serial link between the agent's Modbus master and the
 * simulated slave, on the Clock.
 *
 * `RtuSlaveEndpoint` is the slave's end of any byte stream (this in-memory
 * link, or a real pty in host-sim/modbus/serial-slave.ts): it assembles request
 * frames by their length, applies scripted faults, and answers after
 * `responseDelayMs`. A partial frame left silent for `frameGapMs` is dropped.
 * `SimulatedModbusLink` is a `Serial` (src/ports.ts) whose ports are wired to
 * one endpoint.
 */
import type { Clock, Serial, SerialHandlers, SerialOptions, SerialPort, TimerHandle } from '../../src/ports.js';
import { appendCrc } from '../../src/modbus/rtu.js';
import { FaultScript } from './faults.js';
import type { ModbusSlave } from './slave.js';

export interface EndpointOptions {
  /** Delay before every answer. Default 2 ms. */
  responseDelayMs?: number;
  /** Silence after which a partial request is dropped. Default 20 ms. */
  frameGapMs?: number;
}

/** Length of a request frame from its first bytes, or 0 when unknown yet. */
function requestLength(buf: Uint8Array, length: number): number {
  if (length < 2) return 0;
  const fc = buf[1] ?? 0;
  if (fc === 15 || fc === 16) return length < 7 ? 0 : 9 + (buf[6] ?? 0);
  return 8;
}

export class RtuSlaveEndpoint {
  readonly faults = new FaultScript();
  readonly counters = { requests: 0, answered: 0, ignored: 0 };
  private readonly buf = new Uint8Array(256);
  private length = 0;
  private gapTimer: TimerHandle | undefined;

  constructor(
    readonly slave: ModbusSlave,
    private readonly clock: Clock,
    private readonly send: (bytes: Uint8Array) => void,
    private readonly options: EndpointOptions = {},
  ) {
    for (const f of slave.map.faults) this.faults.add(f);
  }

  onData(bytes: Uint8Array): void {
    for (const b of bytes) {
      if (this.length >= this.buf.length) this.length = 0;
      this.buf[this.length++] = b;
      const need = requestLength(this.buf, this.length);
      if (need !== 0 && this.length >= need) {
        const frame = this.buf.slice(0, need);
        this.length = 0;
        this.handle(frame);
      }
    }
    if (this.gapTimer !== undefined) this.clock.clearTimer(this.gapTimer);
    if (this.length > 0) this.gapTimer = this.clock.setTimer(() => (this.length = 0), this.options.frameGapMs ?? 20);
  }

  private handle(frame: Uint8Array): void {
    this.counters.requests++;
    const fault = this.faults.take(frame[0] ?? 0, frame[1] ?? 0);
    if (fault?.kind === 'noAnswer') {
      this.counters.ignored++;
      return;
    }
    let answer = this.slave.respond(frame);
    if (answer === undefined) {
      this.counters.ignored++;
      return;
    }
    if (fault?.kind === 'exception') answer = exception(answer, fault.code ?? 4);
    if (fault?.kind === 'corruptCrc') answer[answer.length - 1] = (answer[answer.length - 1] ?? 0) ^ 0x5a;
    const delayMs = (this.options.responseDelayMs ?? 2) + (fault?.kind === 'slow' ? (fault.delayMs ?? 1000) : 0);
    const out = answer;
    this.clock.setTimer(() => {
      this.counters.answered++;
      this.send(out);
    }, delayMs);
  }
}

function exception(answer: Uint8Array, code: number): Uint8Array {
  const out = new Uint8Array(5);
  out[0] = answer[0] ?? 0;
  out[1] = (answer[1] ?? 0) | 0x80;
  out[2] = code;
  appendCrc(out, 3);
  return out;
}

/** A Serial whose every port talks to one simulated slave endpoint. */
export class SimulatedModbusLink implements Serial {
  readonly endpoint: RtuSlaveEndpoint;
  /** Options of the last open (tests check the bus settings arrived). */
  lastOptions: SerialOptions | undefined;
  private handlers: SerialHandlers | undefined;

  constructor(slave: ModbusSlave, clock: Clock, options: EndpointOptions = {}) {
    this.endpoint = new RtuSlaveEndpoint(slave, clock, (bytes) => this.handlers?.onData(bytes), options);
  }

  open(options: SerialOptions, handlers: SerialHandlers): SerialPort {
    this.lastOptions = options;
    this.handlers = handlers;
    let open = true;
    return {
      write: (bytes) => {
        if (open) this.endpoint.onData(bytes.slice());
      },
      close: () => {
        open = false;
        if (this.handlers === handlers) this.handlers = undefined;
      },
    };
  }
}
