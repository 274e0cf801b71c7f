/**
 * A DesiredStateSink that records what the hub glue asks of the agent, and
 * lets a test await a condition on what was recorded (Node loopback tests).
 */
import type { DesiredRecord, DesiredStateSink } from '../../../src/agent/desired.js';
import type { Value } from '../../../src/agent/driver.js';

export class RecordingSink implements DesiredStateSink {
  readonly applied: DesiredRecord[] = [];
  readonly properties: [Record<string, Value>, boolean][] = [];
  resyncs = 0;
  /** Each waiter returns true once satisfied (and is then removed). */
  private waiters: (() => boolean)[] = [];

  async applyDesired(record: DesiredRecord): Promise<void> {
    this.applied.push(record);
    this.wake();
  }

  async resyncDesired(): Promise<void> {
    this.resyncs++;
    this.wake();
  }

  updateProperties(values: Readonly<Record<string, Value>>, replace: boolean): void {
    this.properties.push([{ ...values }, replace]);
    this.wake();
  }

  /** Resolves once `condition()` holds (checked now and after every recorded call). */
  until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const waiter = (): boolean => {
        if (!condition()) return false;
        resolve();
        return true;
      };
      if (!waiter()) this.waiters.push(waiter);
    });
  }

  private wake(): void {
    this.waiters = this.waiters.filter((waiter) => !waiter());
  }
}
