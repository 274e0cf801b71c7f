/**
 * The setup server's routes (decisions 11), apart from any HTTP module: a board
 * adapter (targets/moddable/setup-server.ts) or a Node one parses the request
 * and writes the answer this gives.
 *
 * - `GET /` the page, `GET /setup.js` and `GET /setup.css` its script and style
 *   (no inline script or style: the page's CSP is `default-src 'self'`);
 * - `GET /setup` the stored settings, a secret only as `"set"`;
 * - `POST /setup` with `Authorization: Bearer <setup code>` and a JSON body of
 *   settings: tried (trial.ts), stored and answered 200 only when they work,
 *   else 422 `{reason, detail}` and nothing stored; 401 for a wrong or missing
 *   code, 429 with `Retry-After` after 5 (gate.ts), 400 for a malformed body,
 *   413 for one over `MaxBodyBytes`, 409 while a trial is under way.
 *
 * No answer and no log line carries a secret: a bad setting is named with its
 * value's type only, a trial's detail has the settings' secrets removed.
 */
import { info, messageOf, toAgentError, warn } from '../errors.js';
import type { Clock, Logger } from '../ports.js';
import { readJson } from '../reader.js';
import { CodeGate } from './gate.js';
import { PageCss, PageHtml, PageJs } from './page.js';
import { publicSettings, readSettings, type SettingName, type SetupSettings } from './settings.js';
import { trySettings, type TrialPorts } from './trial.js';

/** Largest `POST /setup` body, bytes (settings with a CA certificate fit easily). */
export const MaxBodyBytes = 6144;

/** A parsed request; `body` is the UTF-8 text of the body, when there was one. */
export interface SetupRequest {
  method: string;
  path: string;
  authorization?: string | undefined;
  body?: string | undefined;
}

export interface SetupAnswer {
  status: number;
  /** Header name and value pairs, flat (as the SDK's HTTP server takes them). */
  headers: string[];
  body: string;
  /** Called by the adapter once the answer is written (or the connection is gone). */
  after?: () => void;
}

export interface SetupOptions {
  code: string;
  clock: Clock;
  logger: Logger;
  trial: TrialPorts;
  /** The stored settings (for `GET /setup`). */
  stored(name: SettingName): unknown;
  /** Stores settings that worked; throws when the store refuses them. */
  save(settings: SetupSettings): void;
  /** Called once stored and the 200 written: the board starts the agent with them. */
  onProvisioned(settings: SetupSettings): void;
}

const JSON_TYPE = 'application/json';

export function answer(status: number, value: unknown, headers: string[] = []): SetupAnswer {
  return {
    status,
    headers: ['Content-Type', JSON_TYPE, 'Cache-Control', 'no-store', ...headers],
    body: JSON.stringify(value),
  };
}

const asset = (type: string, body: string): SetupAnswer => ({
  status: 200,
  headers: ['Content-Type', type, 'Content-Security-Policy', "default-src 'self'", 'Cache-Control', 'no-store'],
  body,
});

export class SetupHandler {
  readonly #options: SetupOptions;
  readonly #gate: CodeGate;
  #busy = false;
  #done = false;

  constructor(options: SetupOptions) {
    this.#options = options;
    this.#gate = new CodeGate(options.code, options.clock);
  }

  /** The answer to one request; never rejects. */
  async handle(request: SetupRequest): Promise<SetupAnswer> {
    try {
      return await this.#route(request);
    } catch (e) {
      this.#options.logger.log('error', 'setup: request failed', { error: toAgentError(e).code });
      return answer(500, { error: 'internal' });
    }
  }

  async #route({ method, path, authorization, body }: SetupRequest): Promise<SetupAnswer> {
    const route = path.replace(/\?.*$/, '');
    if (method === 'GET' || method === 'HEAD') {
      if (route === '/' || route === '/index.html') return asset('text/html; charset=utf-8', PageHtml);
      if (route === '/setup.js') return asset('text/javascript', PageJs);
      if (route === '/setup.css') return asset('text/css', PageCss);
    }
    if (route !== '/setup') return answer(404, { error: 'not found' });
    if (method === 'GET' || method === 'HEAD')
      return answer(200, { ...publicSettings(this.#options.stored), provisioned: this.#done });
    if (method !== 'POST') return answer(405, { error: 'method not allowed' }, ['Allow', 'GET, POST']);
    const gate = this.#gate.check(authorization);
    if (!gate.open) {
      warn(this.#options.logger, 'setup: wrong setup code', { status: gate.status });
      if (gate.status === 401)
        return answer(401, { error: 'wrong or missing setup code' }, ['WWW-Authenticate', 'Bearer']);
      return answer(429, { error: 'too many wrong codes', retryAfterS: gate.retryAfterS }, [
        'Retry-After',
        String(gate.retryAfterS),
      ]);
    }
    if (this.#busy || this.#done)
      return answer(409, { error: this.#done ? 'already provisioned' : 'busy trying settings' });
    let settings: SetupSettings;
    try {
      settings = readSettings(readJson(body ?? '', 'body'));
    } catch (e) {
      return answer(400, { error: messageOf(e) });
    }
    this.#busy = true;
    try {
      info(this.#options.logger, 'setup: trying settings', {
        service: settings.serviceUrl,
        device: settings.deviceKey,
      });
      const failure = await trySettings(settings, this.#options.trial);
      if (failure !== undefined) {
        warn(this.#options.logger, 'setup: settings refused', { reason: failure.reason, detail: failure.detail });
        return answer(422, { error: 'settings did not work', ...failure });
      }
      this.#options.save(settings);
      this.#done = true;
    } finally {
      this.#busy = false;
    }
    info(this.#options.logger, 'setup: settings stored', { device: settings.deviceKey });
    return {
      ...answer(200, { status: 'provisioned', device: settings.deviceKey, service: settings.serviceUrl }),
      after: () => this.#options.onProvisioned(settings),
    };
  }
}
