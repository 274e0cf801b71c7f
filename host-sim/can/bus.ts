/**
 * A simulated CAN bus on the Clock: a `Can` (src/ports.ts) whose ports receive
 * every frame put on the bus (by `inject`, a candump replay, or the J1939
 * generator) and whose sent frames are delivered to the other ports.
 */
import type { Can, CanFrame, CanHandlers, CanPort, Clock, TimerHandle } from '../../src/ports.js';
import type { LoggedFrame } from './candump.js';

interface Attached {
  bus: string;
  handlers: CanHandlers;
}

export class SimulatedCanBus implements Can {
  /** Every frame that was put on the bus, in order (bounded: the last `historyLimit`). */
  readonly history: CanFrame[] = [];
  private readonly attached = new Set<Attached>();
  private readonly timers = new Set<TimerHandle>();

  constructor(
    private readonly clock: Clock,
    private readonly historyLimit = 1000,
  ) {}

  open(options: { bus: string; bitrate: number }, handlers: CanHandlers): CanPort {
    const me: Attached = { bus: options.bus, handlers };
    this.attached.add(me);
    return {
      send: (frame) => this.put(frame, me),
      close: () => {
        this.attached.delete(me);
      },
    };
  }

  /** Puts a frame on the bus now. */
  inject(frame: CanFrame): void {
    this.put(frame, undefined);
  }

  /**
   * Replays logged frames at their logged spacing from now (the first frame at
   * once); `loop` starts over after the last frame, `gapMs` later.
   */
  replay(frames: readonly LoggedFrame[], options: { loop?: boolean; gapMs?: number } = {}): void {
    const first = frames[0];
    if (first === undefined) return;
    let lastMs = 0;
    for (const f of frames) {
      lastMs = Math.max(0, (f.timeS - first.timeS) * 1000);
      this.schedule(() => this.inject(f.frame), lastMs);
    }
    if (options.loop === true) this.schedule(() => this.replay(frames, options), lastMs + (options.gapMs ?? 100));
  }

  /** Stops replays and generators. */
  stop(): void {
    for (const t of this.timers) this.clock.clearTimer(t);
    this.timers.clear();
  }

  /** Runs `fn` after `delayMs`, cancelled by `stop`. */
  schedule(fn: () => void, delayMs: number): void {
    const handle = this.clock.setTimer(() => {
      this.timers.delete(handle);
      fn();
    }, delayMs);
    this.timers.add(handle);
  }

  private put(frame: CanFrame, from: Attached | undefined): void {
    const copy = { id: frame.id, extended: frame.extended, data: frame.data.slice() };
    this.history.push(copy);
    if (this.history.length > this.historyLimit) this.history.shift();
    for (const a of this.attached) if (a !== from) a.handlers.onFrame(copy);
  }
}
