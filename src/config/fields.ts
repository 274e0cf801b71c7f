/**
 * Small readers for `unknown` wire objects. Each returns the value or throws
 * AgentError `wire.invalid` naming the field, so validators read top to bottom.
 */
import { AgentError } from '../errors.js';

export type WireObject = Readonly<Record<string, unknown>>;

/** `T` with its possibly-undefined members made optional (and never `undefined`: exactOptionalPropertyTypes). */
export type Present<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** `o` without its undefined members: an optional field that was not given stays absent. */
export function present<T extends object>(o: T): Present<T> {
  for (const key of Object.keys(o) as (keyof T)[]) if (o[key] === undefined) delete o[key];
  return o as Present<T>;
}

export function isObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(field: string, expected: string, value: unknown): never {
  const shown = value === undefined ? 'missing' : JSON.stringify(value);
  throw new AgentError('wire.invalid', `${field}: expected ${expected}, got ${shown}`);
}

export function asObject(value: unknown, field: string): WireObject {
  if (!isObject(value)) fail(field, 'an object', value);
  return value;
}

export function asArray(value: unknown, field: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(field, 'an array', value);
  return value;
}

export function reqString(o: WireObject, field: string): string {
  const v = o[field];
  if (typeof v !== 'string') fail(field, 'a string', v);
  return v;
}

export function optString(o: WireObject, field: string): string | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') fail(field, 'a string', v);
  return v;
}

export function optBoolean(o: WireObject, field: string): boolean | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') fail(field, 'a boolean', v);
  return v;
}

export interface NumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
  /** Strictly greater than `min`. */
  exclusiveMin?: boolean;
}

function checkNumber(field: string, v: unknown, rule: NumberRule): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(field, 'a finite number', v);
  if (rule.integer === true && !Number.isInteger(v)) fail(field, 'an integer', v);
  if (rule.min !== undefined && (rule.exclusiveMin === true ? v <= rule.min : v < rule.min)) {
    fail(field, `a number ${rule.exclusiveMin === true ? '>' : '>='} ${rule.min}`, v);
  }
  if (rule.max !== undefined && v > rule.max) fail(field, `a number <= ${rule.max}`, v);
  return v;
}

export function reqNumber(o: WireObject, field: string, rule: NumberRule = {}): number {
  return checkNumber(field, o[field], rule);
}

export function optNumber(o: WireObject, field: string, rule: NumberRule = {}): number | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  return checkNumber(field, v, rule);
}

export function reqEnum<T extends string>(o: WireObject, field: string, values: readonly T[]): T {
  const v = o[field];
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    fail(field, `one of ${values.join(', ')}`, v);
  }
  return v as T;
}

export function optEnum<T extends string>(o: WireObject, field: string, values: readonly T[]): T | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  return reqEnum(o, field, values);
}
