/**
 * Uniform readers of a request's parameters, from the query string or the JSON
 * body, after Fastify validated them against the route's declaration
 * (routes.ts); they still throw 400 problems naming the parameter for what a
 * schema cannot say. Array parameters repeat the key or carry one
 * comma-separated value (decisions 6). Exclusive pairs (`device`/`entity`) are
 * checked here.
 */
import { badRequest } from '../errors.js';
import { isObject, type JsonObject as WireObject } from '../wire.js';

/** A uniform view of request parameters, from a query string or a JSON body. */
export interface Params {
  /** One optional string; repeated keys are a 400. */
  string(name: string): string | undefined;
  /** An optional list (repeated keys or comma-separated), each name once (repeats are dropped). */
  list(name: string): string[] | undefined;
  /** The raw value (bodies only: numbers, objects, arrays). */
  raw(name: string): unknown;
  has(name: string): boolean;
}

/** Trimmed, non-empty, first occurrence of each name kept (a repeated name costs nothing). */
function unique(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const t = v.trim();
    if (t !== '') out.add(t);
  }
  return [...out];
}

/** The parsed (and validated) query string: a string, or an array of strings for a repeated name. */
export function queryParams(query: Readonly<Record<string, unknown>>): Params {
  const all = (name: string): string[] => {
    const v = query[name];
    if (v === undefined) return [];
    return Array.isArray(v) ? v.map(String) : [String(v)];
  };
  return {
    string(name) {
      const values = all(name);
      if (values.length > 1) throw badRequest(`${name}: expected one value, got ${values.length}`);
      return values[0];
    },
    list(name) {
      const values = all(name);
      if (values.length === 0) return undefined;
      return unique(values.flatMap((v) => v.split(',')));
    },
    raw: (name) => all(name)[0],
    has: (name) => query[name] !== undefined,
  };
}

export function bodyParams(body: unknown): Params & { object: WireObject } {
  if (!isObject(body)) throw badRequest('body: expected a JSON object');
  const object = body;
  const str = (name: string): string | undefined => {
    const v = object[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw badRequest(`${name}: expected a string, got ${JSON.stringify(v)}`);
    return v;
  };
  return {
    object,
    string: str,
    list(name) {
      const v = object[name];
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'string') return unique(v.split(','));
      if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) {
        throw badRequest(`${name}: expected an array of strings`);
      }
      return unique(v as string[]);
    },
    raw: (name) => object[name],
    has: (name) => object[name] !== undefined,
  };
}

/** At most one of two exclusive parameters (spec 4 general rules); returns which one was given. */
export function exclusive(params: Params, a: string, b: string): { name: string; value: string } | undefined {
  const va = params.string(a);
  const vb = params.string(b);
  if (va !== undefined && vb !== undefined) throw badRequest(`${a} and ${b} are mutually exclusive; give one`);
  if (va !== undefined) return { name: a, value: va };
  if (vb !== undefined) return { name: b, value: vb };
  return undefined;
}

/** Like `exclusive` for list parameters (`devices`/`entities`). */
export function exclusiveLists(params: Params, a: string, b: string): { name: string; values: string[] } | undefined {
  const va = params.list(a);
  const vb = params.list(b);
  if (va !== undefined && vb !== undefined) throw badRequest(`${a} and ${b} are mutually exclusive; give one`);
  if (va !== undefined) return { name: a, values: va };
  if (vb !== undefined) return { name: b, values: vb };
  return undefined;
}

/** A non-negative integer query parameter (`i`, `l`). */
export function optIndex(params: Params, name: string): number | undefined {
  const v = params.string(name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw badRequest(`${name}: expected a non-negative integer, got ${JSON.stringify(v)}`);
  return Number(v);
}

/** Upper bound on entries in one write request (the body is also bounded at 1 MiB). */
export const maxEntriesPerWrite = 10_000;

/** The entry array of a write (`states`, `measurements`): objects only, bounded. */
export function asEntries(value: unknown, field: string): WireObject[] {
  if (!Array.isArray(value)) throw badRequest(`${field}: expected an array`);
  if (value.length > maxEntriesPerWrite)
    throw badRequest(`${field}: at most ${maxEntriesPerWrite} entries per request`);
  return value.map((e, i) => {
    if (!isObject(e)) throw badRequest(`${field}[${i}]: expected an object`);
    return e;
  });
}
