/**
 * Read scheduling of one Modbus bus. The agent's scheduler calls each channel's
 * `sample()` at its scan interval; a sample asks this scanner for the channel's
 * point. Demands that arrive at the same moment (the same tick of the Clock) are
 * gathered by a zero-delay Clock timer and planned together (src/modbus/plan.ts),
 * so channels due together share requests and no channel is read more often than
 * its own scan interval asks. A channel whose previous read has not ended joins
 * it instead of queueing another.
 */
import type { Clock } from '../ports.js';
import type { ModbusResult } from './master.js';
import { planReads, type ModbusPoint, type PlannedRead } from './plan.js';
import type { ModbusRequest } from './frames.js';

/** What a demand receives: the read's result and where the read began. */
export interface PointRead {
  result: ModbusResult;
  readAddress: number;
}

interface Demand {
  point: ModbusPoint;
  waiters: ((read: PointRead) => void)[];
}

/** The part of the master the scanner uses. */
export interface RequestSink {
  request(request: ModbusRequest): Promise<ModbusResult>;
}

export class ModbusScanner {
  private gathering: Demand[] = [];
  private readonly inFlight = new Map<ModbusPoint, Promise<PointRead>>();
  private armed = false;

  constructor(
    private readonly master: RequestSink,
    private readonly clock: Clock,
  ) {}

  /** Reads `point` soon, together with whatever else is due now. */
  read(point: ModbusPoint): Promise<PointRead> {
    const running = this.inFlight.get(point);
    if (running !== undefined) return running;
    const promise = new Promise<PointRead>((resolve) => {
      this.gathering.push({ point, waiters: [resolve] });
      if (!this.armed) {
        this.armed = true;
        this.clock.setTimer(() => this.flush(), 0);
      }
    });
    this.inFlight.set(point, promise);
    void promise.then(() => this.inFlight.delete(point));
    return promise;
  }

  private flush(): void {
    this.armed = false;
    const demands = this.gathering;
    this.gathering = [];
    for (const read of planReads(demands)) void this.run(read);
  }

  private async run(read: PlannedRead<Demand>): Promise<void> {
    const result = await this.master.request({
      unit: read.unit,
      functionCode: read.functionCode,
      address: read.address,
      count: read.count,
    });
    const answer: PointRead = { result, readAddress: read.address };
    for (const d of read.members) for (const w of d.waiters) w(answer);
  }
}
