/**
 * Portable assertions for the core's tests. They run unchanged on Node (mocha)
 * and on XS (test/xs harness), where node:assert does not exist.
 */
export class AssertionError extends Error {
  /** A field, not an assignment: XS on a device freezes Error.prototype (see AgentError). */
  override readonly name = 'AssertionError';
}

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Uint8Array) return `Uint8Array[${Array.from(v).join(',')}]`;
  try {
    const s = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : Number.isNaN(x) ? 'NaN' : x));
    return s === undefined ? String(v) : s;
  } catch {
    return String(v);
  }
}

function same(a: unknown, b: unknown): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

export function isDeepEqual(a: unknown, b: unknown): boolean {
  if (same(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.constructor !== b.constructor) return false;
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    return x.length === y.length && x.every((v, i) => v === y[i]);
  }
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map) || !(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !isDeepEqual(v, b.get(k))) return false;
    return true;
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => isDeepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The portable assertion set (an explicit type, so `assert.ok` can narrow). */
export interface Assert {
  ok(value: unknown, message?: string): asserts value;
  equal<T>(actual: T, expected: T, message?: string): void;
  notEqual<T>(actual: T, expected: T, message?: string): void;
  deepEqual(actual: unknown, expected: unknown, message?: string): void;
  near(actual: number | undefined, expected: number, tolerance: number, message?: string): void;
  match(actual: string, pattern: RegExp, message?: string): void;
  throws(fn: () => unknown, code?: string, message?: string): unknown;
  rejects(p: Promise<unknown> | (() => Promise<unknown>), code?: string, message?: string): Promise<unknown>;
  fail(message: string): never;
}

export const assert: Assert = {
  ok(value: unknown, message = 'expected a truthy value'): asserts value {
    if (!value) throw new AssertionError(`${message} (got ${show(value)})`);
  },
  equal<T>(actual: T, expected: T, message = ''): void {
    if (!same(actual, expected)) {
      throw new AssertionError(`${message ? message + ': ' : ''}expected ${show(expected)}, got ${show(actual)}`);
    }
  },
  notEqual<T>(actual: T, expected: T, message = ''): void {
    if (same(actual, expected))
      throw new AssertionError(`${message ? message + ': ' : ''}expected not ${show(expected)}`);
  },
  deepEqual(actual: unknown, expected: unknown, message = ''): void {
    if (!isDeepEqual(actual, expected)) {
      throw new AssertionError(`${message ? message + ': ' : ''}expected ${show(expected)}, got ${show(actual)}`);
    }
  },
  /** |actual - expected| <= tolerance. */
  near(actual: number | undefined, expected: number, tolerance: number, message = ''): void {
    if (actual === undefined || !(Math.abs(actual - expected) <= tolerance)) {
      throw new AssertionError(
        `${message ? message + ': ' : ''}expected ${expected} ± ${tolerance}, got ${show(actual)}`,
      );
    }
  },
  match(actual: string, pattern: RegExp, message = ''): void {
    if (!pattern.test(actual))
      throw new AssertionError(`${message ? message + ': ' : ''}${show(actual)} does not match ${pattern}`);
  },
  /** Runs `fn`, expects it to throw; returns the error. `code` checks an AgentError code. */
  throws(fn: () => unknown, code?: string, message = ''): unknown {
    try {
      fn();
    } catch (e) {
      checkCode(e, code, message);
      return e;
    }
    throw new AssertionError(`${message ? message + ': ' : ''}expected an exception`);
  },
  async rejects(p: Promise<unknown> | (() => Promise<unknown>), code?: string, message = ''): Promise<unknown> {
    try {
      await (typeof p === 'function' ? p() : p);
    } catch (e) {
      checkCode(e, code, message);
      return e;
    }
    throw new AssertionError(`${message ? message + ': ' : ''}expected a rejection`);
  },
  fail(message: string): never {
    throw new AssertionError(message);
  },
};

function checkCode(e: unknown, code: string | undefined, message: string): void {
  if (code === undefined) return;
  const actual = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  if (actual !== code) {
    const text = e instanceof Error ? e.message : String(e);
    throw new AssertionError(
      `${message ? message + ': ' : ''}expected error code ${code}, got ${show(actual)} (${text})`,
    );
  }
}
