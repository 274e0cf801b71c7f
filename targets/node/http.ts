/**
 * The HttpTransport port on Node. Any status resolves; no response (refused,
 * reset, DNS, timeout) rejects with AgentError `network`, a failed certificate
 * check with `tls` naming the host and the reason (ports.ts contract, docs/tls.md).
 * `binary` answers the body as bytes. Both paths keep their connections alive
 * (fetch's undici pool by default, the https Agent with `keepAlive`): one
 * connection carries the agent's requests (test/node/keepalive.test.ts).
 * Plain use goes through the built-in `fetch` (system/bundled CA store); a
 * private CA (`--ca`) or `--insecure` goes through `node:https` with an Agent
 * carrying `ca` / `rejectUnauthorized`, since Node 20's `fetch` takes neither.
 * A `binary` request's answer comes as bytes (`HttpResponse.bytes`, body '').
 */
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { AgentError } from '../../src/errors.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/ports.js';

/** Certificate checking of the Node adapters (HTTP and WebSocket). */
export interface NodeTlsOptions {
  /** PEM CA certificate(s) to trust instead of the bundled store (`--ca FILE`). */
  ca?: string;
  /** Lab use only: accept any certificate (`--insecure`). */
  insecure?: boolean;
}

export interface FetchHttpOptions {
  /** Per-request timeout, ms. Default 30000. */
  timeoutMs?: number;
  tls?: NodeTlsOptions;
}

const tlsCodes = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|DEPTH_ZERO|HOSTNAME/;

/** `host[:port]` of an absolute URL (never its path or query, which may carry secrets). */
export function hostOf(url: string): string {
  return url.replace(/^[a-z]+:\/\/([^/?#]+).*$/s, '$1');
}

/** AgentError `tls` for a certificate failure (`error` or its cause), else undefined. */
export function tlsFailure(url: string, error: unknown): AgentError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && tlsCodes.test(code)) {
      return new AgentError('tls', `TLS check failed for ${hostOf(url)}: ${code} (${e.message})`, { cause: error });
    }
  }
  return undefined;
}

function networkFailure(url: string, e: unknown): AgentError {
  // fetch wraps the socket's error in `cause`; node:https gives it directly.
  const inner = e instanceof Error && e.cause instanceof Error ? e.cause : e;
  const code = (inner as { code?: unknown } | undefined)?.code;
  const reason =
    typeof code === 'string' ? code : inner instanceof Error && inner.message !== '' ? inner.message : String(e);
  return new AgentError('network', `no response from ${hostOf(url)}: ${reason}`, { cause: e });
}

export class FetchHttp implements HttpTransport {
  private readonly timeoutMs: number;
  private readonly agent: HttpsAgent | undefined;

  constructor(options: FetchHttpOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30000;
    const tls = options.tls;
    if (tls?.ca !== undefined || tls?.insecure === true) {
      this.agent = new HttpsAgent({
        keepAlive: true,
        ...(tls.ca === undefined ? {} : { ca: tls.ca }),
        rejectUnauthorized: tls.insecure !== true,
      });
    }
  }

  request(request: HttpRequest): Promise<HttpResponse> {
    if (this.agent !== undefined && request.url.startsWith('https://')) return this.viaHttps(request, this.agent);
    return this.viaFetch(request);
  }

  private async viaFetch(request: HttpRequest): Promise<HttpResponse> {
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      throw tlsFailure(request.url, e) ?? networkFailure(request.url, e);
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    try {
      if (request.binary === true) {
        return { status: response.status, headers, body: '', bytes: new Uint8Array(await response.arrayBuffer()) };
      }
      return { status: response.status, headers, body: await response.text() };
    } catch (e) {
      throw new AgentError('network', `response body interrupted: ${e instanceof Error ? e.message : String(e)}`, {
        cause: e,
      });
    }
  }

  private viaHttps(request: HttpRequest, agent: HttpsAgent): Promise<HttpResponse> {
    return new Promise<HttpResponse>((resolve, reject) => {
      const fail = (e: unknown): void => reject(tlsFailure(request.url, e) ?? networkFailure(request.url, e));
      const headers: Record<string, string> = { ...request.headers };
      if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
      const req = httpsRequest(request.url, { method: request.method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          const out: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          const all = Buffer.concat(chunks);
          const status = res.statusCode ?? 0;
          if (request.binary === true) resolve({ status, headers: out, body: '', bytes: new Uint8Array(all) });
          else resolve({ status, headers: out, body: all.toString('utf8') });
        });
      });
      req.setTimeout(this.timeoutMs, () => req.destroy(new AgentError('timeout', `no answer in ${this.timeoutMs} ms`)));
      req.on('error', fail);
      req.end(request.body);
    });
  }

  /** Closes idle kept-alive connections of the `node:https` path. */
  close(): void {
    this.agent?.destroy();
  }
}
