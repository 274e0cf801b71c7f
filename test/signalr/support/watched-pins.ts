/**
 * FakePins whose output writes can be awaited: the end-to-end tests wait for
 * "the simulated output was written" as an event, never by sleeping.
 */
import type { DigitalOutput, PwmOutput } from '../../../src/ports.js';
import { FakePins } from '../../fakes/fake-pins.js';

export class WatchedPins extends FakePins {
  /** Each waiter returns true once satisfied (and is then removed). */
  private waiters: (() => boolean)[] = [];

  override digitalOutput(options: { pin: number }): DigitalOutput {
    return this.watch(super.digitalOutput(options));
  }

  override pwmOutput(options: { pin: number }): PwmOutput {
    return this.watch(super.pwmOutput(options));
  }

  /** Resolves with the write index once pin `pin` has been written `count` times in all. */
  untilWrites(pin: number, count = 1): Promise<void> {
    return new Promise((resolve) => {
      const waiter = (): boolean => {
        if (this.writes.filter((w) => w.pin === pin).length < count) return false;
        resolve();
        return true;
      };
      if (!waiter()) this.waiters.push(waiter);
    });
  }

  private watch<T extends { write(value: never): void }>(io: T): T {
    const write = io.write.bind(io) as (value: boolean | number) => void;
    (io as { write(value: boolean | number): void }).write = (value) => {
      write(value);
      this.waiters = this.waiters.filter((waiter) => !waiter());
    };
    return io;
  }
}
