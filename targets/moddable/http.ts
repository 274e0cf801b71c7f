/**
 * The HttpTransport port on Moddable, over the SDK's `http` Request (and
 * `securesocket` for https).
 *
 * Four details of that module are handled here. Its socket callbacks throw in
 * ordinary outages (a refused connection ends in "write failed"), which would
 * abort the machine: the request runs on a GuardedSocket, and whatever fails
 * there rejects the request with `network`, like an error callback does. A whole body is written to the
 * socket at once and throws "can't write all data" (an uncaught exception that
 * aborts the machine) when it exceeds the socket's free space, so the body is
 * streamed through `requestFragment` in pieces the socket can take. Its
 * Content-Length would count characters, so the body is UTF-8 bytes with an
 * explicit Content-Length. It has no timeout, so a request that gets no
 * complete answer within `timeoutMs` is closed and rejected with `timeout`.
 */
import { Request } from 'http';
import SecureSocket from 'securesocket';
import { AgentError } from '../../src/errors.js';
import type { Clock, HttpRequest, HttpResponse, HttpTransport } from '../../src/ports.js';
import { describe, GuardedSocket, type GuardOptions, type SocketClass } from './guarded-socket.js';
import { splitUrl } from './url.js';

export class ModdableHttp implements HttpTransport {
  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs = 30_000,
    /** SecureSocket's `secure` dictionary for https (ports.ts `secureOptions`). */
    private readonly secure: Record<string, unknown> = { protocolVersion: 0x303 },
  ) {}

  request(req: HttpRequest): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      let parts;
      try {
        parts = splitUrl(req.url);
      } catch (e) {
        reject(e);
        return;
      }
      const headers: string[] = [];
      for (const name in req.headers) headers.push(name, req.headers[name] ?? '');
      if (parts.port !== (parts.secure ? 443 : 80)) headers.push('Host', `${parts.host}:${parts.port}`);
      const options: Record<string, unknown> = {
        host: parts.host,
        port: parts.port,
        path: parts.path,
        method: req.method,
        headers,
        response: String,
      };
      let body: ArrayBuffer | undefined;
      let sent = 0;
      if (req.body !== undefined) {
        body = ArrayBuffer.fromString(req.body);
        headers.push('Content-Length', String(body.byteLength));
        options.body = true;
      }
      const response = { status: 0, headers: {} as Record<string, string>, body: '' };
      let settled = false;
      let request: Request | undefined;
      const finish = (error: AgentError | undefined): void => {
        if (settled) return;
        settled = true;
        this.clock.clearTimer(timer);
        if (error === undefined) resolve(response);
        else reject(error);
      };
      const guard: GuardOptions = {
        onFault: (e) => {
          request?.close();
          finish(new AgentError('network', `${req.method} ${parts.host}: ${describe(e)}`, { cause: e }));
        },
      };
      options.Socket = GuardedSocket;
      options.guard = guard;
      if (parts.secure) {
        guard.Inner = SecureSocket as unknown as SocketClass;
        options.secure = this.secure;
      }
      const timer = this.clock.setTimer(() => {
        request?.close();
        finish(new AgentError('timeout', `${req.method} ${parts.host}: no answer in ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      try {
        request = new Request(options as ConstructorParameters<typeof Request>[0]);
      } catch (e) {
        finish(new AgentError('network', `${req.method} ${parts.host}: cannot connect: ${describe(e)}`, { cause: e }));
        return;
      }
      request.callback = (message: number, value?: unknown, extra?: unknown) => {
        if (message === Request.requestFragment) {
          if (body === undefined || sent >= body.byteLength) return undefined;
          const size = Math.min(Number(value), body.byteLength - sent);
          const piece = body.slice(sent, sent + size);
          sent += size;
          return piece;
        }
        if (message === Request.status) response.status = Number(value);
        else if (message === Request.header) response.headers[String(value).toLowerCase()] = String(extra);
        else if (message === Request.responseComplete) {
          response.body = typeof value === 'string' ? value : '';
          finish(undefined);
        } else if (message === Request.error) {
          finish(new AgentError('network', `${req.method} ${parts.host}: ${String(value ?? 'failed')}`));
        }
      };
    });
  }
}
