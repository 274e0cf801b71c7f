/**
 * The one reader of `unknown` wire values: small rules (`(value, at) => T`) that
 * return the value or throw AgentError `wire.invalid` as
 * `<path>: expected <what>, got <value>`, and tables of rules (shapes, unions)
 * that read a whole record. The channel and bus tables live in src/wire.ts; the
 * hub and board readers use the field helpers at the end.
 */
import { AgentError } from './errors.js';

export type WireObject = Readonly<Record<string, unknown>>;

/** Reads one value at path `at`: returns it typed, or throws `wire.invalid`. */
export type Rule<T> = (value: unknown, at: string) => T;

/** A table entry: a rule for the field of the same name, or `[wireName, rule]`. */
export type Field = Rule<unknown> | readonly [string, Rule<unknown>];
export type Shape = Readonly<Record<string, Field>>;

/** `T` with its possibly-undefined members made optional (and never `undefined`: exactOptionalPropertyTypes). */
export type Present<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

type ValueOf<F> = F extends Rule<infer T> ? T : F extends readonly [string, Rule<infer T>] ? T : never;

/** What `read` makes of a shape: a field whose rule gave `undefined` is absent. */
export type Read<S extends Shape> = Present<{ -readonly [K in keyof S]: ValueOf<S[K]> }>;

/** What a `union` reads: the `type` and the common fields, then that type's own. */
export type ReadUnion<V extends Readonly<Record<string, Shape>>, C extends Shape> = {
  [K in keyof V & string]: { type: K } & Read<C> & Read<V[K]>;
}[keyof V & string];

export function isObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Throws `<at>: expected <expected>, got <value>`; a list of values is spelled `one of a|b|c`. */
export function fail(at: string, expected: string | readonly unknown[], value: unknown): never {
  if (typeof expected !== 'string') expected = 'one of ' + expected.join('|');
  const shown = value === undefined ? 'missing' : String(JSON.stringify(value)).slice(0, 40);
  throw new AgentError('wire.invalid', `${at}: expected ${expected}, got ${shown}`);
}

/** Parses JSON text; AgentError `wire.invalid` `<at>: not JSON` when it is not. */
export function readJson(text: string, at: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AgentError('wire.invalid', `${at}: not JSON`, { cause: e });
  }
}

/** A rule that accepts what passes `test`, described as `expected`. */
export function check<T>(expected: string | readonly unknown[], test: (value: unknown) => boolean): Rule<T> {
  return (v, at) => (test(v) ? (v as T) : fail(at, expected, v));
}

/** A value of JavaScript type `type`, described by the type's name. */
const ofType = <T>(type: 'boolean' | 'string'): Rule<T> => check(type, (v) => typeof v === type);

export const str = ofType<string>('string');
export const nonEmpty = check<string>('non-empty string', (v) => typeof v === 'string' && v !== '');
/** A state or property value (JSON has no NaN or Infinity to refuse). */
export const scalar = check<boolean | number | string>('boolean, number or string', (v) =>
  ['boolean', 'number', 'string'].includes(typeof v),
);
export const bool = ofType<boolean>('boolean');
export const obj = check<WireObject>('object', isObject);
export const arr = check<readonly unknown[]>('array', Array.isArray);

/** JSON text that must be an object (`<at>: not JSON`, `<at>: expected object`). */
export const readObject = (text: string, at: string): WireObject => obj(readJson(text, at), at);

/** A finite number in min..max, an integer when asked. */
export function num(min = -Infinity, max = Infinity, integer = false): Rule<number> {
  const kind = integer ? 'integer' : 'number';
  return check(
    max < Infinity ? `${kind} ${min}..${max}` : min > -Infinity ? `${kind} >= ${min}` : kind,
    (v) => Number.isFinite(v) && (!integer || Number.isInteger(v)) && (v as number) >= min && (v as number) <= max,
  );
}

export const int = (min?: number, max?: number): Rule<number> => num(min, max, true);
export const positive = check<number>('number > 0', (v) => Number.isFinite(v) && (v as number) > 0);

/** One of `values` (strings or numbers); the expectation `one of a|b|c` is spelled only on failure. */
export const oneOf = <const T>(values: readonly T[]): Rule<T> => check(values, (v) => values.includes(v as T));

/** Absent (undefined or null) gives `fallback`; anything else must pass `rule`. */
export function opt<T>(rule: Rule<T>): Rule<T | undefined>;
export function opt<T>(rule: Rule<T>, fallback: T): Rule<T>;
export function opt<T>(rule: Rule<T>, fallback?: T): Rule<T | undefined> {
  return (v, at) => (v == null ? fallback : rule(v, at));
}

/** A string, or absent. */
export const optStr = opt(str);

/** An array whose entries each pass `rule` (paths `at[i]`). */
export function list<T>(rule: Rule<T>): Rule<T[]> {
  return (v, at) => arr(v, at).map((e, i) => rule(e, `${at}[${i}]`));
}

/** The fields of `shape` from `o`, each at `at.<wireName>`. */
export function read<S extends Shape>(o: WireObject, shape: S, at: string): Read<S> {
  const out: Record<string, unknown> = {};
  for (const name in shape) {
    const field = shape[name] as Field;
    const [wire, rule] = typeof field === 'function' ? [name, field] : field;
    const value = rule(o[wire], `${at}.${wire}`);
    if (value !== undefined) out[name] = value;
  }
  return out as Read<S>;
}

/**
 * An object tagged by `type`: one of `variants`' keys, then the common fields and that variant's. The fields
 * of `checked` must pass their rules too but are not kept (a record's fields its reader has no use for).
 */
export function union<V extends Readonly<Record<string, Shape>>, C extends Shape>(
  variants: V,
  common: C,
  checked: Shape = {},
): Rule<ReadUnion<V, C>> {
  const type = oneOf(Object.keys(variants));
  return (v, at) => {
    const o = obj(v, at);
    const t = type(o['type'], `${at}.type`);
    read(o, checked, at);
    return { type: t, ...read(o, common, at), ...read(o, variants[t] as Shape, at) } as ReadUnion<V, C>;
  };
}

// Field helpers for the host simulator's readers (the firmware reads with the rules above): `o[field]` read at path `field`.

export { obj as asObject, arr as asArray };
export const reqString = (o: WireObject, field: string): string => str(o[field], field);
export const optString = (o: WireObject, field: string): string | undefined =>
  o[field] == null ? undefined : str(o[field], field);
export const optBoolean = (o: WireObject, field: string): boolean | undefined =>
  o[field] == null ? undefined : bool(o[field], field);
export const reqEnum = <T>(o: WireObject, field: string, values: readonly T[]): T => oneOf(values)(o[field], field);
export const optEnum = <T>(o: WireObject, field: string, values: readonly T[]): T | undefined =>
  o[field] == null ? undefined : oneOf(values)(o[field], field);

export interface NumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
}

export const reqNumber = (o: WireObject, field: string, r: NumberRule = {}): number =>
  num(r.min, r.max, r.integer)(o[field], field);
export const optNumber = (o: WireObject, field: string, r: NumberRule = {}): number | undefined =>
  o[field] == null ? undefined : reqNumber(o, field, r);
