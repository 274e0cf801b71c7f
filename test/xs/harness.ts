/**
 * A small mocha-compatible test harness that runs inside the XS engine (xsnap).
 *
 * It owns the globals the portable tests use (describe, it, before, after,
 * beforeEach, afterEach), runs the collected tests in mocha's order (hooks from
 * the outer suite in, after-hooks from the inner suite out), and reports every
 * event to the Node host through xsnap's synchronous `issueCommand`. The host
 * (test/xs/run.mjs) prints the results and answers fixture reads.
 *
 * XS has no timers here: a test whose promise is still pending when the job
 * queue runs dry can never finish; the host reports it from the last `start`
 * event it saw (there is no wall-clock timeout to wait for).
 *
 * Before the tests load, the harness freezes the built-ins (as Moddable's ROM
 * does) and removes the extras that xsnap adds to a bare XS machine (print,
 * setImmediate, TextEncoder, performance, ...), so the tests see the globals of
 * a Moddable device, not more.
 */

type Done = (error?: unknown) => void;
type TestFn = (this: Context, done: Done) => unknown;
type HookKind = 'before' | 'after' | 'beforeEach' | 'afterEach';

interface Test {
  title: string;
  fn: TestFn | undefined;
}

interface Suite {
  title: string;
  parent: Suite | undefined;
  tests: Test[];
  suites: Suite[];
  /** Children in declaration order. */
  order: (Test | Suite)[];
  hooks: Record<HookKind, TestFn[]>;
}

/** Thrown by `this.skip()`. */
class Pending {
  readonly pending = true;
}

/** The `this` of tests, hooks and describe bodies (mocha's Context, the parts tests use). */
class Context {
  skip(): never {
    throw new Pending();
  }
  timeout(_ms?: number): this {
    return this;
  }
  slow(_ms?: number): this {
    return this;
  }
  retries(_n?: number): this {
    return this;
  }
}

interface Host {
  harden: unknown;
  issueCommand(message: ArrayBufferLike): ArrayBuffer;
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new () => { decode(bytes: ArrayBuffer): string };
}

const g = globalThis as unknown as Record<string, unknown> & Host;
const encoder = new g.TextEncoder();
const decoder = new g.TextDecoder();
const issue = g.issueCommand;

/** Sends one event to the host; returns its (JSON) answer. */
function send(event: Record<string, unknown>): unknown {
  const bytes = encoder.encode(JSON.stringify(event));
  const answer = decoder.decode(issue(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
  return answer === '' ? undefined : (JSON.parse(answer) as unknown);
}

const harden = g.harden as unknown as (value: unknown) => void;

// What a bare XS machine on a device does not have: hide xsnap's additions.
for (const name of [
  'print',
  'issueCommand',
  'setImmediate',
  'gc',
  'performance',
  'currentMeterLimit',
  'resetMeter',
  'TextEncoder',
  'TextDecoder',
  'Base64',
  'harden',
]) {
  delete g[name];
}

// Moddable firmware keeps the built-ins in ROM, frozen: assigning an inherited
// read-only property (e.g. `this.name = ...` in an Error subclass) throws there
// ("set name: not writable"). Freeze them here too, with xsnap's `harden`, so the
// tests meet the device's rules.
for (const name of Object.getOwnPropertyNames(globalThis)) {
  const value = g[name];
  // The standard built-ins: constructors, and the Math, JSON, Reflect, Atomics namespaces.
  if (/^[A-Z]/.test(name) && (typeof value === 'function' || (typeof value === 'object' && value !== null))) {
    harden(value);
  }
}

g.__readFixture = (path: string): string => {
  const answer = send({ t: 'fixture', path }) as { text?: string; error?: string };
  if (answer.text === undefined) throw new Error(`fixture ${path}: ${answer.error ?? 'unreadable'}`);
  return answer.text;
};

function newSuite(title: string, parent: Suite | undefined): Suite {
  return {
    title,
    parent,
    tests: [],
    suites: [],
    order: [],
    hooks: { before: [], after: [], beforeEach: [], afterEach: [] },
  };
}

const root = newSuite('', undefined);
let current = root;

g.describe = (title: string, body: (this: Context) => void): void => {
  const suite = newSuite(title, current);
  current.suites.push(suite);
  current.order.push(suite);
  const outer = current;
  current = suite;
  try {
    body.call(new Context());
  } finally {
    current = outer;
  }
};
g.context = g.describe;
g.it = (title: string, fn?: TestFn): void => {
  const test = { title, fn };
  current.tests.push(test);
  current.order.push(test);
};
g.specify = g.it;
for (const kind of ['before', 'after', 'beforeEach', 'afterEach'] as const) {
  g[kind] = (a: string | TestFn, b?: TestFn): void => {
    const fn = typeof a === 'function' ? a : b;
    if (fn !== undefined) current.hooks[kind].push(fn);
  };
}

/** Runs one test or hook body: sync, promise-returning, or with a `done` callback. */
function call(fn: TestFn, ctx: Context): Promise<unknown> {
  if (fn.length > 0) {
    return new Promise((resolve, reject) => {
      try {
        fn.call(ctx, (error?: unknown) => (error === undefined || error === null ? resolve(undefined) : reject(error)));
      } catch (e) {
        reject(e);
      }
    });
  }
  try {
    return Promise.resolve(fn.call(ctx, () => undefined));
  } catch (e) {
    return Promise.reject(e);
  }
}

function describeError(e: unknown): string {
  if (e instanceof Error) {
    const stack = typeof e.stack === 'string' ? e.stack : '';
    const head = `${e.name}: ${e.message}`;
    return stack.includes(e.message) ? stack : stack === '' ? head : `${head}\n${stack}`;
  }
  try {
    return `thrown: ${JSON.stringify(e)}`;
  } catch {
    return `thrown: ${String(e)}`;
  }
}

function fullTitle(suite: Suite, title: string): string {
  const parts = [title];
  for (let s: Suite | undefined = suite; s !== undefined && s !== root; s = s.parent) parts.unshift(s.title);
  return parts.join(' ');
}

function chain(suite: Suite): Suite[] {
  const list: Suite[] = [];
  for (let s: Suite | undefined = suite; s !== undefined; s = s.parent) list.unshift(s);
  return list;
}

const counts = { passed: 0, failed: 0, pending: 0 };

function countTests(suite: Suite): number {
  return suite.tests.length + suite.suites.reduce((n, s) => n + countTests(s), 0);
}

async function runHooks(fns: readonly TestFn[], ctx: Context): Promise<void> {
  for (const fn of fns) await call(fn, ctx);
}

/** Marks every test under `suite` as failed (a before-hook failed) or pending (it skipped). */
function abandon(suite: Suite, depth: number, result: 'fail' | 'pending', reason: string): void {
  for (const item of suite.order) {
    if ('order' in item) abandon(item, depth + 1, result, reason);
    else {
      if (result === 'fail') counts.failed++;
      else counts.pending++;
      send({ t: result, title: item.title, full: fullTitle(suite, item.title), depth, error: reason });
    }
  }
}

/** Runs a suite; its context inherits from its parent's, as in mocha (`this.x` set in a before hook). */
async function runSuite(suite: Suite, depth: number, parentCtx: Context): Promise<void> {
  if (countTests(suite) === 0) return;
  if (suite !== root) send({ t: 'suite', title: suite.title, depth });
  const ctx = Object.create(parentCtx) as Context;
  try {
    await runHooks(suite.hooks.before, ctx);
  } catch (e) {
    if (e instanceof Pending) abandon(suite, depth + 1, 'pending', 'skipped in a before hook');
    else abandon(suite, depth + 1, 'fail', `"before all" hook failed: ${describeError(e)}`);
    return;
  }
  for (const item of suite.order) {
    if ('order' in item) await runSuite(item, depth + 1, ctx);
    else await runTest(suite, item, depth + 1, ctx);
  }
  try {
    await runHooks(suite.hooks.after, ctx);
  } catch (e) {
    counts.failed++;
    send({
      t: 'fail',
      title: '"after all" hook',
      full: fullTitle(suite, '"after all" hook'),
      depth: depth + 1,
      error: describeError(e),
    });
  }
}

async function runTest(suite: Suite, test: Test, depth: number, ctx: Context): Promise<void> {
  const full = fullTitle(suite, test.title);
  if (test.fn === undefined) {
    counts.pending++;
    send({ t: 'pending', title: test.title, full, depth, error: 'no test body' });
    return;
  }
  send({ t: 'start', full });
  const suites = chain(suite);
  let error: unknown;
  let skipped = false;
  try {
    for (const s of suites) await runHooks(s.hooks.beforeEach, ctx);
    await call(test.fn, ctx);
  } catch (e) {
    if (e instanceof Pending) skipped = true;
    else error = e;
  }
  try {
    for (const s of suites.reverse()) await runHooks(s.hooks.afterEach, ctx);
  } catch (e) {
    if (error === undefined) error = new Error(`"after each" hook failed: ${describeError(e)}`);
  }
  if (error !== undefined) {
    counts.failed++;
    send({ t: 'fail', title: test.title, full, depth, error: describeError(error) });
  } else if (skipped) {
    counts.pending++;
    send({ t: 'pending', title: test.title, full, depth, error: 'skipped' });
  } else {
    counts.passed++;
    send({ t: 'pass', title: test.title, full, depth });
  }
}

/** Runs every collected test; the host evaluates this after the bundle has loaded. */
g.__runTests = (): void => {
  runSuite(root, -1, new Context()).then(
    () => send({ t: 'done', ...counts }),
    (e: unknown) => send({ t: 'crash', error: describeError(e), ...counts }),
  );
};
