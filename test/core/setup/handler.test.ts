/**
 * The setup routes (decisions 11): the page, `GET /setup` without secrets, and
 * `POST /setup`: code, body, trial, store only on success, 422 naming why.
 */
import { AgentError } from '../../../src/errors.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../../src/ports.js';
import { SetupHandler, type SetupAnswer, type SetupRequest } from '../../../src/setup/handler.js';
import type { SettingName, SetupSettings } from '../../../src/setup/settings.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { assert } from '../../support/assert.js';

const CODE = 'K7M2Q9XR';
const TOKEN = 'device-token-secret-42';
const settings = { serviceUrl: 'http://dds.test:8080', deviceKey: 'demo-001', token: TOKEN };

type Answer = (r: HttpRequest) => HttpResponse | Promise<HttpResponse>;

function board(service: Answer = () => ({ status: 200, headers: {}, body: '[]' })) {
  const clock = new FakeClock();
  const logger = new FakeLogger();
  const store = new Map<string, string>();
  const requests: HttpRequest[] = [];
  const provisioned: SetupSettings[] = [];
  const http: HttpTransport = {
    request: async (r) => {
      requests.push(r);
      return service(r);
    },
  };
  const handler = new SetupHandler({
    code: CODE,
    clock,
    logger,
    trial: { http: () => http },
    stored: (name: SettingName) => store.get(name),
    save: (s) => {
      for (const [k, v] of Object.entries(s)) store.set(k, v as string);
    },
    onProvisioned: (s) => provisioned.push(s),
  });
  const post = (body: unknown, code = CODE): Promise<SetupAnswer> =>
    handler.handle({ method: 'POST', path: '/setup', authorization: `Bearer ${code}`, body: JSON.stringify(body) });
  return { clock, logger, store, requests, provisioned, handler, post };
}

const json = (a: SetupAnswer): Record<string, unknown> => JSON.parse(a.body) as Record<string, unknown>;
const header = (a: SetupAnswer, name: string): string | undefined => {
  const at = a.headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === name.toLowerCase());
  return at < 0 ? undefined : a.headers[at + 1];
};

describe('setup handler', () => {
  it('serves the page, its script and style under a CSP, with no inline script or external asset', async () => {
    const { handler } = board();
    const page = await handler.handle({ method: 'GET', path: '/' });
    assert.equal(page.status, 200);
    assert.match(header(page, 'content-type') ?? '', /^text\/html/);
    assert.equal(header(page, 'content-security-policy'), "default-src 'self'");
    assert.ok(
      !/<script>|<style|\son\w+=|(src|href)="?https?:/.test(page.body),
      'no inline script, style or external asset',
    );
    assert.match(page.body, /<script src="\/setup.js"/);
    assert.match(page.body, /name="viewport"/);
    assert.ok(/^[\x09\x0a\x0d\x20-\x7e]*$/.test(page.body), 'ASCII only');
    assert.match((await handler.handle({ method: 'GET', path: '/setup.js' })).body, /Authorization: 'Bearer '/);
    assert.equal((await handler.handle({ method: 'GET', path: '/setup.css' })).status, 200);
    assert.equal((await handler.handle({ method: 'GET', path: '/nope' })).status, 404);
    assert.equal((await handler.handle({ method: 'DELETE', path: '/setup' })).status, 405);
  });

  it('GET /setup needs no code and shows a secret only as "set"', async () => {
    const { handler, store } = board();
    assert.deepEqual(json(await handler.handle({ method: 'GET', path: '/setup' })), { provisioned: false });
    store.set('token', TOKEN);
    store.set('deviceKey', 'demo-001');
    const a = await handler.handle({ method: 'GET', path: '/setup?x=1' });
    assert.deepEqual(json(a), { deviceKey: 'demo-001', token: 'set', provisioned: false });
    assert.ok(!a.body.includes(TOKEN));
  });

  it('refuses a wrong or missing code with 401, trying nothing', async () => {
    const { post, handler, requests, store } = board();
    const a = await post(settings, 'WRONG');
    assert.equal(a.status, 401);
    assert.equal(header(a, 'www-authenticate'), 'Bearer');
    assert.equal((await handler.handle({ method: 'POST', path: '/setup', body: '{}' })).status, 401);
    assert.equal(requests.length, 0);
    assert.equal(store.size, 0);
  });

  it('answers 429 with Retry-After after 5 wrong codes', async () => {
    const { post } = board();
    for (let i = 0; i < 5; i++) assert.equal((await post(settings, 'WRONG')).status, 401);
    const a = await post(settings);
    assert.equal(a.status, 429);
    assert.ok(Number(header(a, 'retry-after')) >= 1);
  });

  it('answers 400 naming the bad field of a malformed body', async () => {
    const { post, handler, requests } = board();
    const notJson = await handler.handle({
      method: 'POST',
      path: '/setup',
      authorization: `Bearer ${CODE}`,
      body: '{',
    });
    assert.equal(notJson.status, 400);
    assert.match(String(json(notJson).error), /not JSON/);
    const bad = await post({ ...settings, token: 'a b' });
    assert.equal(bad.status, 400);
    assert.match(String(json(bad).error), /^token: .*got "string"/);
    assert.equal(requests.length, 0);
  });

  it('tries the settings with the token, stores them on success, answers 200, then starts the agent', async () => {
    const { post, requests, store, provisioned, logger } = board();
    const a = await post(settings);
    assert.equal(a.status, 200);
    assert.deepEqual(json(a), { status: 'provisioned', device: 'demo-001', service: 'http://dds.test:8080' });
    assert.equal(requests[0]?.url, 'http://dds.test:8080/api/v1/channels/list?device=demo-001');
    assert.equal(requests[0]?.headers['authorization'], `Bearer ${TOKEN}`);
    assert.equal(store.get('token'), TOKEN);
    assert.equal(provisioned.length, 0, 'the agent starts once the answer is written');
    a.after?.();
    assert.deepEqual(provisioned, [settings]);
    assert.equal((await post(settings)).status, 409);
    assert.ok(!JSON.stringify(logger.lines).includes(TOKEN));
    logger.assertNoErrors();
  });

  const refusals: Array<[string, Answer, string]> = [
    ['a 401', () => ({ status: 401, headers: {}, body: '' }), 'unauthorized'],
    ['a 403', () => ({ status: 403, headers: {}, body: '' }), 'unauthorized'],
    ['a 404', () => ({ status: 404, headers: {}, body: '{"title":"no device"}' }), 'not-found'],
    ['a 500', () => ({ status: 500, headers: {}, body: '' }), 'refused'],
    [
      'no connection',
      () => Promise.reject(new AgentError('network', 'http dds.test: connection refused')),
      'unreachable',
    ],
    ['no answer', () => Promise.reject(new AgentError('timeout', 'http dds.test: no answer')), 'unreachable'],
    [
      'a certificate refused',
      () => Promise.reject(new AgentError('tls', 'TLS check failed for dds.test: UNABLE_TO_VERIFY_LEAF_SIGNATURE')),
      'certificate',
    ],
    ['an answer that is not JSON', () => ({ status: 200, headers: {}, body: '<html>' }), 'refused'],
  ];
  for (const [what, service, reason] of refusals) {
    it(`answers 422 "${reason}" for ${what}, and stores nothing`, async () => {
      const { post, store, provisioned } = board(service);
      const a = await post(settings);
      assert.equal(a.status, 422);
      assert.equal(json(a).reason, reason);
      assert.equal(typeof json(a).detail, 'string');
      assert.equal(store.size, 0);
      assert.equal(a.after, undefined);
      assert.equal(provisioned.length, 0);
    });
  }

  it('never echoes a secret that the service puts in its answer', async () => {
    const echo: Answer = (r) => ({
      status: 401,
      headers: {},
      body: JSON.stringify({ title: `bad ${r.headers['authorization']} ${encodeURIComponent(TOKEN)}` }),
    });
    const { post, logger } = board(echo);
    const a = await post({ ...settings, ssid: 'net', password: 'wifi-pass-123' });
    assert.equal(a.status, 422);
    assert.ok(!a.body.includes(TOKEN) && !a.body.includes(encodeURIComponent(TOKEN)), a.body);
    assert.match(a.body, /\[redacted\]/);
    assert.ok(!JSON.stringify(logger.lines).includes(TOKEN));
  });

  it('answers 409 to a second POST while the first is being tried', async () => {
    let release: (r: HttpResponse) => void = () => undefined;
    const { post } = board(() => new Promise((done) => (release = done)));
    const first = post(settings);
    await Promise.resolve();
    assert.equal((await post(settings)).status, 409);
    release({ status: 200, headers: {}, body: '[]' });
    assert.equal((await first).status, 200);
  });

  it('answers 500 without detail when the store refuses the settings', async () => {
    const { handler } = board();
    const failing = new SetupHandler({
      code: CODE,
      clock: new FakeClock(),
      logger: new FakeLogger(),
      trial: { http: () => ({ request: async () => ({ status: 200, headers: {}, body: '[]' }) }) },
      stored: () => undefined,
      save: () => {
        throw new AgentError('store', `store: full ${TOKEN}`);
      },
      onProvisioned: () => undefined,
    });
    const request: SetupRequest = {
      method: 'POST',
      path: '/setup',
      authorization: `Bearer ${CODE}`,
      body: JSON.stringify(settings),
    };
    const a = await failing.handle(request);
    assert.equal(a.status, 500);
    assert.ok(!a.body.includes(TOKEN));
    assert.equal((await handler.handle({ method: 'HEAD', path: '/setup' })).status, 200);
  });
});
