/**
 * Shared set-up for the service tests: a service on a loopback port 0 with the
 * demo fixture and a controllable clock, and small HTTP helpers that return
 * status, headers and parsed JSON. Every API response they receive is
 * validated against the generated OpenAPI document (openapi-check.ts); a
 * mismatch fails the test.
 */
import { strict as assert } from 'node:assert';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoFixturePath } from '../../host-sim/service/fixture.js';
import { checkResponse } from './openapi-check.js';
import { everyDeviceProperties } from '../../host-sim/service/property-definitions.js';
import {
  createServiceApp,
  loadFixture,
  startService,
  type Fixture,
  type RunningService,
  type ServiceApp,
  type ServiceOptions,
} from '../../host-sim/service/index.js';

/** The source tree root (tests run from build/test/service). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export { demoFixturePath };
export const demo = {
  product: '6f1c2a34-0d8e-4b7a-9c51-2e3f4a5b6c01',
  location: '9c4d5e6f-3041-4c7d-8e8f-000000000d01',
  device1: 'a0d5e6f7-4152-4d8e-9f90-000000000e01',
  device2: 'a0d5e6f7-4152-4d8e-9f90-000000000e02',
  admin: 'admin-token-demo',
  token1: 'device-token-demo-001',
  token2: 'device-token-demo-002',
} as const;

/** The properties every device has besides its fixture's (the six `fw-*` and `provisioned-at`, each ""; decisions 8 and 12). */
export const everyDeviceDefaults: Readonly<Record<string, string | number | boolean>> = Object.fromEntries(
  everyDeviceProperties.map((p) => [p.name, p.initial]),
);

/** A fresh copy of the demo fixture (tests may extend it). */
export function demoFixture(): Fixture {
  return structuredClone(loadFixture(demoFixturePath));
}

/** A settable clock; starts at 2026-01-01T00:00:00Z. */
export class TestClock {
  nowMs = Date.UTC(2026, 0, 1);
  readonly now = (): number => this.nowMs;
}

export interface TestService {
  service: RunningService;
  clock: TestClock;
  get(path: string, token?: string | null): Promise<Reply>;
  post(path: string, body: unknown, token?: string | null): Promise<Reply>;
}

export interface Reply {
  status: number;
  headers: Headers;
  json: unknown;
  text: string;
}

async function reply(r: Response, method: string, path: string): Promise<Reply> {
  const text = await r.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  checkResponse(method, path, r.status, r.headers.get('content-type') ?? '', json);
  return { status: r.status, headers: r.headers, json, text };
}

function headers(token: string | null | undefined): Record<string, string> {
  const h: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token !== null) h['Authorization'] = `Bearer ${token ?? demo.admin}`;
  return h;
}

/** Starts a service on 127.0.0.1:0 with the demo fixture (or `options`). */
export async function startTestService(options: Partial<ServiceOptions> = {}): Promise<TestService> {
  const clock = new TestClock();
  // The test clock stands still unless a test moves it, so a token's request budget would never refill:
  // the suites run with a budget they cannot spend; the budget's own tests (fair-share) set the documented one.
  const limits = { burst: 1_000_000, ...options.limits };
  const service = await startService({ fixture: demoFixture(), now: clock.now, ...options, limits });
  return {
    service,
    clock,
    get: async (path, token) => reply(await fetch(service.url + path, { headers: headers(token) }), 'GET', path),
    post: async (path, body, token) =>
      reply(
        await fetch(service.url + path, {
          method: 'POST',
          headers: headers(token),
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
        'POST',
        path,
      ),
  };
}

/** Hub timings that never fire during a test (the hub tests drive pings themselves). */
export const quietHub: Partial<ServiceOptions> = { hub: { pingIntervalMs: 60_000, clientTimeoutMs: 60_000 } };

export interface UseTestServiceHooks {
  /** One service for the whole suite (before/after) instead of one per test. Default false. */
  once?: boolean;
  /** Runs before the service closes (e.g. terminates the test's own sockets). */
  beforeClose?(): void;
}

/**
 * Registers the hooks that start a service for each test of the calling suite
 * (or once, see `hooks.once`) and close it afterwards; the returned object
 * delegates to the service of the moment.
 */
export function useTestService(
  options: Partial<ServiceOptions> | (() => Partial<ServiceOptions>) = {},
  hooks: UseTestServiceHooks = {},
): TestService & { restart(options: Partial<ServiceOptions>): Promise<void> } {
  let current: TestService | undefined;
  const now = (): TestService => {
    if (current === undefined) throw new Error('test service: used outside a test');
    return current;
  };
  (hooks.once === true ? before : beforeEach)(async () => {
    current = await startTestService(typeof options === 'function' ? options() : options);
  });
  (hooks.once === true ? after : afterEach)(async () => {
    hooks.beforeClose?.();
    const t = now();
    current = undefined;
    await t.service.close();
  });
  return {
    get service() {
      return now().service;
    },
    get clock() {
      return now().clock;
    },
    get: (path, token) => now().get(path, token),
    post: (path, body, token) => now().post(path, body, token),
    /** Closes the service of the moment and starts another with `options` (this test only). */
    restart: async (next) => {
      await now().service.close();
      current = await startTestService(next);
    },
  };
}

type Obj = Record<string, unknown>;

/** `states/write` (answers the status) and `states/<query>` reads (asserts 200) against `t`. */
export function stateApi(t: TestService): {
  write(states: Obj[], device?: string): Promise<number>;
  read(query: string): Promise<Obj[]>;
} {
  return {
    write: async (states, device = 'demo-001') => (await t.post('/api/v1/states/write', { device, states })).status,
    read: async (query) => {
      const r = await t.get(`/api/v1/states/${query}`);
      assert.equal(r.status, 200, r.text);
      return r.json as Obj[];
    },
  };
}

/** Unix seconds of the test clock plus `offsetMs`. */
export function seconds(clock: TestClock, offsetMs = 0): number {
  return (clock.nowMs + offsetMs) / 1000;
}

/** The service built without listening (Fastify `inject`), with the demo fixture and a test clock. */
export async function buildTestApp(
  options: Partial<ServiceOptions> = {},
): Promise<
  ServiceApp & { clock: TestClock; request(method: 'GET' | 'POST', url: string, body?: string): Promise<Reply> }
> {
  const clock = new TestClock();
  const built = await createServiceApp({ fixture: demoFixture(), now: clock.now, ...options });
  return {
    ...built,
    clock,
    async request(method, url, body) {
      const r = await built.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${demo.admin}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { payload: body }),
      });
      const type = String(r.headers['content-type'] ?? '');
      let json: unknown;
      try {
        json = r.body === '' ? undefined : JSON.parse(r.body);
      } catch {
        json = undefined;
      }
      checkResponse(method, url, r.statusCode, type, json);
      const h = new Headers();
      for (const [k, v] of Object.entries(r.headers)) if (v !== undefined) h.set(k, String(v));
      return { status: r.statusCode, headers: h, json, text: r.body };
    },
  };
}
