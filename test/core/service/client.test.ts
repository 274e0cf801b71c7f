/** The typed HTTP client: URLs, bearer token, typed errors with status, Date header. */
import { isAgentError } from '../../../src/errors.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../../src/ports.js';
import { ServiceClient } from '../../../src/service/client.js';
import { Paths } from '../../../src/wire.js';
import { assert } from '../../support/assert.js';

class Scripted implements HttpTransport {
  readonly requests: HttpRequest[] = [];
  constructor(private readonly answer: (r: HttpRequest) => HttpResponse) {}
  request(r: HttpRequest): Promise<HttpResponse> {
    this.requests.push(r);
    return Promise.resolve(this.answer(r));
  }
}

const access = { baseUrl: 'http://dds.test:8080/', device: 'demo 001', token: 'tok-123456' };

describe('service client', () => {
  it('builds encoded URLs, sends the bearer token, parses JSON and reports the Date header', async () => {
    const http = new Scripted(() => ({ status: 200, headers: { date: 'Thu, 01 Jan 2026 00:00:00 GMT' }, body: '[1]' }));
    const client = new ServiceClient(http, access);
    const dates: Array<string | undefined> = [];
    client.onDate = (d) => dates.push(d);
    assert.deepEqual(await client.ofDevice(Paths.statesReadLast, ['channels', '*.desired']), [1]);
    await client.ofDevice(Paths.channelsList);
    const [first, second] = http.requests;
    assert.equal(first?.url, 'http://dds.test:8080/api/v1/states/read/last?device=demo%20001&channels=*.desired');
    assert.equal(second?.url, 'http://dds.test:8080/api/v1/channels/list?device=demo%20001');
    assert.equal(first?.headers['authorization'], 'Bearer tok-123456');
    assert.deepEqual(dates, ['Thu, 01 Jan 2026 00:00:00 GMT', 'Thu, 01 Jan 2026 00:00:00 GMT']);
    assert.equal(http.requests.length, 2);
  });

  it('posts JSON bodies', async () => {
    const http = new Scripted(() => ({ status: 200, headers: {}, body: '' }));
    const client = new ServiceClient(http, access);
    await client.post('/api/v1/states/write', `${client.devicePrefix()}"states":[]}`);
    assert.equal(http.requests[0]?.body, '{"device":"demo 001","states":[]}');
    assert.equal(http.requests[0]?.headers['content-type'], 'application/json');
    assert.equal(http.requests.length, 1);
  });

  it('turns 401 and 403 into auth, other non-2xx into http.status, with the problem detail', async () => {
    for (const status of [401, 403]) {
      const client = new ServiceClient(new Scripted(() => ({ status, headers: {}, body: '' })), access);
      const e = await assert.rejects(client.ofDevice(Paths.devicesGet), 'auth');
      assert.ok(isAgentError(e) && e.status === status);
    }
    const problem = '{"status":400,"title":"Bad Request","detail":"channels: unknown"}';
    const client = new ServiceClient(new Scripted(() => ({ status: 400, headers: {}, body: problem })), access);
    const e = await assert.rejects(client.ofDevice(Paths.propertiesGet), 'http.status');
    assert.ok(isAgentError(e) && e.status === 400);
    assert.match((e as Error).message, /GET \/api\/v1\/properties\/get: 400 channels: unknown/);
  });

  it('refuses a 200 whose body is not JSON with wire.invalid', async () => {
    const client = new ServiceClient(new Scripted(() => ({ status: 200, headers: {}, body: '<html>' })), access);
    await assert.rejects(client.ofDevice(Paths.channelsList), 'wire.invalid');
  });
});
