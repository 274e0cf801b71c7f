/**
 * The HttpTransport port on Node, over the built-in `fetch`. Any status
 * resolves; no response (refused, reset, DNS, timeout) rejects with AgentError
 * `network`, a failed certificate check with `tls` (ports.ts contract).
 */
import { AgentError } from '../../src/errors.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/ports.js';

export interface FetchHttpOptions {
  /** Per-request timeout, ms. Default 30000. */
  timeoutMs?: number;
}

const tlsCodes = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|DEPTH_ZERO/;

function causeCode(e: unknown): string {
  const cause = e instanceof Error ? (e.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof cause?.message === 'string' ? cause.message : '';
}

export class FetchHttp implements HttpTransport {
  private readonly timeoutMs: number;

  constructor(options: FetchHttpOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30000;
  }

  async request(request: HttpRequest): Promise<HttpResponse> {
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      const code = causeCode(e);
      const host = request.url.replace(/^[a-z]+:\/\/([^/]+).*$/, '$1');
      if (tlsCodes.test(code)) throw new AgentError('tls', `TLS check failed for ${host}: ${code}`, { cause: e });
      const reason = code !== '' ? code : e instanceof Error ? e.message : String(e);
      throw new AgentError('network', `no response from ${host}: ${reason}`, { cause: e });
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    let body: string;
    try {
      body = await response.text();
    } catch (e) {
      throw new AgentError('network', `response body interrupted: ${e instanceof Error ? e.message : String(e)}`, {
        cause: e,
      });
    }
    return { status: response.status, headers, body };
  }
}
