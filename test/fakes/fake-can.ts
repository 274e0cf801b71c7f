/**
 * A fake Can port: records what the core sends, and lets a test (or the
 * simulated CAN bus) deliver frames to the core.
 */
import type { AgentError } from '../../src/errors.js';
import type { Can, CanFrame, CanHandlers, CanPort } from '../../src/ports.js';

export class FakeCanPort implements CanPort {
  readonly sent: CanFrame[] = [];
  closed = false;

  constructor(
    readonly options: { bus: string; bitrate: number },
    private readonly handlers: CanHandlers,
  ) {}

  send(frame: CanFrame): void {
    if (this.closed) throw new Error('send on a closed fake CAN port');
    this.sent.push({ id: frame.id, extended: frame.extended, data: frame.data.slice() });
  }

  close(): void {
    this.closed = true;
  }

  /** Delivers one frame to the core. */
  deliver(id: number, data: readonly number[] | Uint8Array, extended = id > 0x7ff): void {
    if (this.closed) return;
    this.handlers.onFrame({ id, extended, data: data instanceof Uint8Array ? data : Uint8Array.from(data) });
  }

  fail(error: AgentError): void {
    this.handlers.onError?.(error);
  }
}

export class FakeCan implements Can {
  readonly ports: FakeCanPort[] = [];

  open(options: { bus: string; bitrate: number }, handlers: CanHandlers): FakeCanPort {
    const port = new FakeCanPort(options, handlers);
    this.ports.push(port);
    return port;
  }

  /** The port most recently opened for `bus`. */
  port(bus: string): FakeCanPort {
    for (let i = this.ports.length - 1; i >= 0; i--) {
      const p = this.ports[i];
      if (p !== undefined && p.options.bus === bus) return p;
    }
    throw new Error(`no fake CAN port was opened for ${bus}`);
  }
}
