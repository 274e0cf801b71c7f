/**
 * A board in setup mode on Node, for the provision command's tests: the core's
 * setup routes (src/setup/handler.ts) behind node:http on port 0, trying
 * settings through the Node HttpTransport (FetchHttp) against a real service.
 * It keeps what it stored and counts the requests it got.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MaxBodyBytes, SetupHandler, answer, type SetupAnswer } from '../../src/setup/handler.js';
import type { SettingName, SetupSettings } from '../../src/setup/settings.js';
import { FetchHttp } from '../../targets/node/http.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';

export class FakeBoard {
  readonly stored = new Map<SettingName, string>();
  readonly provisioned: SetupSettings[] = [];
  readonly logger = new FakeLogger();
  readonly answers: SetupAnswer[] = [];
  requests = 0;
  url = '';
  readonly #server: Server;
  readonly handler: SetupHandler;

  constructor(readonly code: string) {
    this.handler = new SetupHandler({
      code,
      clock: new FakeClock(),
      logger: this.logger,
      trial: { http: () => new FetchHttp({ timeoutMs: 5_000 }) },
      stored: (name) => this.stored.get(name),
      save: (settings) => {
        for (const [name, value] of Object.entries(settings)) this.stored.set(name as SettingName, value as string);
      },
      onProvisioned: (settings) => this.provisioned.push(settings),
    });
    this.#server = createServer((req, res) => {
      this.requests++;
      const chunks: Buffer[] = [];
      let size = 0;
      const reply = (a: SetupAnswer): void => {
        this.answers.push(a);
        const headers: Record<string, string> = {};
        for (let i = 0; i + 1 < a.headers.length; i += 2) headers[a.headers[i] as string] = a.headers[i + 1] as string;
        res.writeHead(a.status, headers).end(a.body, () => a.after?.());
      };
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MaxBodyBytes) chunks.push(c);
      });
      req.on('end', () => {
        if (size > MaxBodyBytes) return reply(answer(413, { error: 'too large' }));
        const body = Buffer.concat(chunks).toString('utf8');
        void this.handler
          .handle({
            method: req.method ?? 'GET',
            path: req.url ?? '/',
            authorization: req.headers.authorization,
            body: size > 0 ? body : undefined,
          })
          .then(reply);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((done) => this.#server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((done) => this.#server.close(() => done()));
  }
}
