/**
 * Value comparison for transmit events (decisions.md section 3): equality with
 * NaN equal to NaN, and Location objects compared field by field, plus a
 * reusable Location copy so the decider keeps the last reported position
 * without allocating per scan.
 */
import type { Location, SampleValue } from '../agent/driver.js';
import { LocationFields } from '../wire.js';

export function isLocation(value: SampleValue): value is Location {
  return typeof value === 'object' && value !== null;
}

function sameNumber(a: number | undefined, b: number | undefined): boolean {
  return a === b || (a !== a && b !== b); // NaN equals NaN (rule 4)
}

/** Rule 4 equality: NaN equals NaN; Locations equal when every field is. */
export function sameValue(a: SampleValue, b: SampleValue): boolean {
  if (isLocation(a) || isLocation(b)) {
    if (!isLocation(a) || !isLocation(b)) return false;
    for (const field of LocationFields) if (!sameNumber(a[field], b[field])) return false;
    return true;
  }
  if (typeof a === 'number' && typeof b === 'number') return sameNumber(a, b);
  return a === b;
}

/** Copies `source` into `target` (fields absent in source are deleted from target). */
export function copyLocation(target: Location, source: Location): Location {
  for (const field of LocationFields) {
    const v = source[field];
    if (v === undefined) delete target[field];
    else target[field] = v;
  }
  return target;
}
