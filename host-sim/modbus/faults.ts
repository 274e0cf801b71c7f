/**
 * Scripted faults of the simulated Modbus slave. A fault applies to requests
 * for `unit` (and, when given, only to `functionCode`), for the next `times`
 * requests (default: until removed):
 * - `noAnswer`: the request is ignored, as by a device that is off the bus;
 * - `exception`: the answer is exception `code` (e.g. 2 illegal data address,
 *   4 server device failure);
 * - `corruptCrc`: the right answer with its CRC damaged;
 * - `slow`: the right answer, `delayMs` late (e.g. beyond the master's timeout).
 */
import { asObject, optNumber, reqEnum, reqNumber } from '../../src/reader.js';

export const FaultKinds = ['noAnswer', 'exception', 'corruptCrc', 'slow'] as const;
export type FaultKind = (typeof FaultKinds)[number];

export interface ModbusFault {
  unit: number;
  kind: FaultKind;
  functionCode?: number;
  /** Exception code for `exception`. */
  code?: number;
  /** Extra delay for `slow`, milliseconds. */
  delayMs?: number;
  /** Requests affected; undefined: every request until removed. */
  times?: number;
}

/** Validates one fault of a register-map file. */
export function parseFault(raw: unknown): ModbusFault {
  const o = asObject(raw, 'faults[]');
  const functionCode = optNumber(o, 'functionCode', { integer: true, min: 1, max: 127 });
  const code = optNumber(o, 'code', { integer: true, min: 1, max: 255 });
  const delayMs = optNumber(o, 'delayMs', { min: 0 });
  const times = optNumber(o, 'times', { integer: true, min: 1 });
  return {
    unit: reqNumber(o, 'unit', { integer: true, min: 1, max: 247 }),
    kind: reqEnum(o, 'kind', FaultKinds),
    ...(functionCode === undefined ? {} : { functionCode }),
    ...(code === undefined ? {} : { code }),
    ...(delayMs === undefined ? {} : { delayMs }),
    ...(times === undefined ? {} : { times }),
  };
}

/** The active faults of a slave; `take` consumes one use of the first matching fault. */
export class FaultScript {
  private readonly faults: ModbusFault[] = [];

  add(fault: ModbusFault): void {
    this.faults.push({ ...fault });
  }

  clear(): void {
    this.faults.length = 0;
  }

  /** The fault that applies to this request, if any (one use is consumed). */
  take(unit: number, functionCode: number): ModbusFault | undefined {
    const i = this.faults.findIndex(
      (f) => f.unit === unit && (f.functionCode === undefined || f.functionCode === functionCode),
    );
    const fault = this.faults[i];
    if (fault === undefined) return undefined;
    if (fault.times !== undefined && --fault.times <= 0) this.faults.splice(i, 1);
    return fault;
  }
}
