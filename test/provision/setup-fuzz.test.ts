/**
 * Fuzzing the setup routes (fast-check, Node only): any method, path,
 * Authorization header and body, the right code or not, a service that answers
 * anything (echoing what it got, refusing, failing) never makes the handler
 * reject, answers only the statuses decisions 11 names, and never puts a
 * secret of the request (token, Wi-Fi password) into an answer or a log line.
 * The same requests over TCP against the firmware on XS: test/xs/firmware-setup.mjs.
 */
import fc from 'fast-check';
import { AgentError } from '../../src/errors.js';
import type { HttpRequest, HttpResponse } from '../../src/ports.js';
import { SetupHandler } from '../../src/setup/handler.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { assert } from '../support/assert.js';

const CODE = 'K7M2Q9XR';
const STATUSES = [200, 400, 401, 404, 405, 409, 422, 429, 500];

/** A secret: long enough to be told apart from any other text of an answer. */
const secret = fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/).map((s) => `S3cr3t-${s}`);

const service = fc.oneof(
  fc.constant<'echo'>('echo'),
  fc.integer({ min: 100, max: 599 }),
  fc.constantFrom<Array<'network' | 'timeout' | 'tls'>>('network', 'timeout', 'tls'),
);

const settingsBody = fc.record(
  {
    serviceUrl: fc.oneof(
      { arbitrary: fc.constant('http://dds.test:8080'), weight: 4 },
      { arbitrary: fc.string(), weight: 1 },
      { arbitrary: fc.webUrl(), weight: 1 },
    ),
    deviceKey: fc.oneof({ arbitrary: fc.constant('demo-001'), weight: 4 }, { arbitrary: fc.string(), weight: 1 }),
    token: secret,
    ssid: fc.string({ maxLength: 40 }),
    password: secret,
    caCert: fc.oneof(fc.string(), fc.constant('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----')),
    extra: fc.jsonValue(),
  },
  { requiredKeys: ['serviceUrl', 'deviceKey', 'token'] },
);

const body = fc.oneof(
  {
    arbitrary: settingsBody.map((s) => ({ text: JSON.stringify(s), secrets: [s.token, s.password ?? ''] })),
    weight: 5,
  },
  fc.string({ maxLength: 200 }).map((text) => ({ text, secrets: [] as string[] })),
  fc.jsonValue().map((v) => ({ text: JSON.stringify(v) ?? '', secrets: [] as string[] })),
  fc.constant({ text: undefined as string | undefined, secrets: [] as string[] }),
);

const request = fc.record({
  method: fc.oneof(fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'), fc.string({ maxLength: 8 })),
  path: fc.oneof(fc.constantFrom('/', '/setup', '/setup.js', '/setup.css', '/setup?x=1', '/index.html'), fc.string()),
  authorization: fc.oneof(
    { arbitrary: fc.constant(`Bearer ${CODE}`), weight: 3 },
    fc.constant(undefined),
    fc.string({ maxLength: 30 }),
    fc.string({ maxLength: 12 }).map((s) => `Bearer ${s}`),
  ),
  body,
  service,
});

type Req = typeof request extends fc.Arbitrary<infer T> ? T : never;
const valid = {
  serviceUrl: 'http://dds.test:8080',
  deviceKey: 'demo-001',
  token: 'S3cr3t-example-token',
  password: 'S3cr3t-example-pass',
};
const post = (authorization: string, service: Req['service']): Req => ({
  method: 'POST',
  path: '/setup',
  authorization,
  body: { text: JSON.stringify(valid), secrets: [valid.token, valid.password] },
  service,
});
const EXAMPLES: Record<string, Req[]> = {
  refused: [post(`Bearer ${CODE}`, 'echo'), post(`Bearer ${CODE}`, 'tls'), post(`Bearer ${CODE}`, 404)],
  wrongCodes: Array.from({ length: 7 }, () => post('Bearer WRONG', 'echo')),
  accepted: [post(`Bearer ${CODE}`, 200), post(`Bearer ${CODE}`, 200)],
};

describe('setup routes under fuzzing', () => {
  it('never reject, answer only the contract statuses, and never echo or log a secret', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 24 }), async (requests) => {
        const clock = new FakeClock();
        const logger = new FakeLogger();
        let current: (typeof requests)[number] | undefined;
        const answerOf = (r: HttpRequest): Promise<HttpResponse> => {
          const s = current?.service;
          if (s === 'echo')
            return Promise.resolve({ status: 401, headers: {}, body: JSON.stringify({ detail: JSON.stringify(r) }) });
          if (typeof s === 'number')
            return Promise.resolve({ status: s, headers: {}, body: JSON.stringify(r.headers) });
          return Promise.reject(new AgentError(s ?? 'network', `failed with ${r.headers['authorization']}`));
        };
        const handler = new SetupHandler({
          code: CODE,
          clock,
          logger,
          trial: { http: () => ({ request: answerOf }) },
          stored: () => undefined,
          save: () => undefined,
          onProvisioned: () => undefined,
        });
        for (const r of requests) {
          current = r;
          const a = await handler.handle({
            method: r.method,
            path: r.path,
            authorization: r.authorization,
            body: r.body.text,
          });
          assert.ok(STATUSES.includes(a.status), `status ${a.status}`);
          seen.add(a.status);
          const said = a.body + a.headers.join('\n') + JSON.stringify(logger.lines);
          for (const s of r.body.secrets) if (s !== '') assert.ok(!said.includes(s), `secret in ${said}`);
          for (const s of r.body.secrets)
            if (s !== '') assert.ok(!said.includes(encodeURIComponent(s)), `encoded secret in ${said}`);
          if (a.status === 200 && r.method === 'POST') assert.equal(r.authorization?.trim(), `Bearer ${CODE}`);
          clock.advance(200);
        }
      }),
      // Besides the random runs: a trial that fails, a back-off, a success (the paths the coverage check wants).
      { numRuns: 200, examples: [[EXAMPLES.refused], [EXAMPLES.wrongCodes], [EXAMPLES.accepted]] },
    );
    // The runs reached every path that matters, not only the cheap refusals.
    for (const status of [200, 400, 401, 404, 422, 429]) assert.ok(seen.has(status), `no ${status} in ${[...seen]}`);
  });
});
