/**
 * Typed HTTP client of the Device Data Service for the calls a device makes
 * (spec section 4): configuration reads, state and measurement writes, the
 * desired-state resync read. Every request carries the bearer token (spec 5);
 * non-2xx answers become AgentError `auth` (401, 403: not retried blindly) or
 * `http.status`, with the status and the problem detail (decisions 6) and, for
 * a 429 or 503, the `Retry-After` wait (decisions 10); every
 * response's `Date` header is offered to the wall time (decisions 4).
 */
import { statusError } from '../errors.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../ports.js';
import { readJson } from '../reader.js';

export interface ServiceAccess {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Device external key (or UUID) used as `device` in every call. */
  device: string;
  /** Access token (spec 5). */
  token: string;
}

const json = 'application/json';

/** Query parameters: a name of the specification's (URL-safe, sent as is) and its value (encoded). */
export type Query = ReadonlyArray<readonly [name: string, value: string]>;

export class ServiceClient {
  readonly #http: HttpTransport;
  readonly #base: string;
  /** Called with every response's `Date` header (wall time learns from it). */
  declare onDate: ((header: string | undefined) => void) | undefined;
  /** Called after every 2xx answer: the service is reachable (the outbox retries at once). */
  declare onSuccess: (() => void) | undefined;

  declare readonly access: ServiceAccess;

  constructor(http: HttpTransport, access: ServiceAccess) {
    this.access = access;
    this.#http = http;
    this.#base = access.baseUrl.replace(/\/+$/, '');
  }

  /** POST a JSON body already encoded (the outbox keeps records as JSON text). */
  async post(path: string, body: string): Promise<void> {
    await this.#send('POST', path, '', body);
  }

  /**
   * GET of this device's `path` (`device=<key>` first in the query), answering the
   * parsed JSON body: `Paths.channelsList`, `devicesGet`, `propertiesGet`, or
   * `statesReadLast` with `['channels', '*.desired']` (decisions 5).
   */
  async ofDevice(path: string, ...more: Query): Promise<unknown> {
    return readJson(await this.textOfDevice(path, ...more), path);
  }

  /** The same GET, answering the body's text as it came (the configuration is compared by its text's hash). */
  async textOfDevice(path: string, ...more: Query): Promise<string> {
    const query = [['device', this.access.device] as const, ...more]
      .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
      .join('&');
    return (await this.#send('GET', path, '?' + query)).body;
  }

  /** Body prefix `{"device":"<key>",` shared by the write calls. */
  devicePrefix(): string {
    return `{"device":${JSON.stringify(this.access.device)},`;
  }

  async #send(method: 'GET' | 'POST', path: string, search: string, body?: string): Promise<HttpResponse> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.access.token}`,
      accept: json,
    };
    const url = this.#base + path + search;
    const request: HttpRequest = { method, url, headers };
    if (body !== undefined) {
      headers['content-type'] = json;
      request.body = body;
    }
    const response = await this.#http.request(request);
    this.onDate?.(response.headers['date']);
    const status = response.status;
    if (status >= 200 && status < 300) {
      this.onSuccess?.();
      return response;
    }
    throw statusError(status, response.headers, `${method} ${path}: ${status}${problemDetail(response.body)}`);
  }
}

/** ` <detail>` (else ` <title>`) of an RFC 9457 problem body, or '' (the body is untrusted). */
function problemDetail(body: string): string {
  try {
    // Any JSON: a value that is not an object has neither field.
    const o = JSON.parse(body) as { detail?: unknown; title?: unknown } | null;
    const text = o?.detail ?? o?.title;
    return typeof text === 'string' && text ? ' ' + text.slice(0, 200) : '';
  } catch {
    return '';
  }
}
