/**
 * The HttpTransport port on Moddable, over the SDK's `http` Request (and
 * `securesocket` for https).
 *
 * Four details of that module are handled here. Its socket callbacks throw in
 * ordinary outages (a refused connection ends in "write failed"), which would
 * abort the machine: the request's socket callback runs guarded (guarded-socket.ts), and whatever fails
 * there rejects the request with `network`, like an error callback does. A whole body is written to the
 * socket at once and throws "can't write all data" (an uncaught exception that
 * aborts the machine) when it exceeds the socket's free space, so the body is
 * streamed through `requestFragment` in pieces the socket can take. Its
 * Content-Length would count characters, so the body is UTF-8 bytes with an
 * explicit Content-Length. It has no timeout, so a request that gets no
 * complete answer within `timeoutMs` is closed and rejected with `timeout`.
 * An error's message is one line: `http <host>: <reason>`.
 */
import { Request } from 'http';
import { AgentError, toAgentError } from '../../src/errors.js';
import type { Clock, HttpRequest, HttpResponse, HttpTransport } from '../../src/ports.js';
import { closeQuietly, guard, socketOptions } from './guarded-socket.js';

/**
 * HTTP over the SDK's `http` Request; `timeoutMs` bounds each request, `secure`
 * is SecureSocket's `secure` dictionary for https (boot.ts).
 */
export function moddableHttp(clock: Clock, timeoutMs: number, secure: Record<string, unknown>): HttpTransport {
  return {
    request(req: HttpRequest): Promise<HttpResponse> {
      return new Promise((resolve, reject) => {
        const options = socketOptions(req.url, req.headers, secure);
        const { host, port, headers } = options;
        if (port !== (options.secure ? 443 : 80)) headers.push('Host', `${host}:${port}`);
        const body = req.body === undefined ? undefined : ArrayBuffer.fromString(req.body);
        options.method = req.method;
        options.response = String;
        if (body !== undefined) {
          headers.push('Content-Length', String(body.byteLength));
          options.body = true;
        }
        let sent = 0;
        const response = { status: 0, headers: {} as Record<string, string>, body: '' };
        let request: Request | undefined;
        // The first outcome wins (a promise settles once); a later one (a close's callback) only clears the
        // timer and closes the request again, both of which ignore a second time.
        const finish = (code?: 'network' | 'timeout', reason?: unknown, cause?: unknown): void => {
          clock.clearTimer(timer);
          if (code === undefined) resolve(response);
          else {
            reject(new AgentError(code, `http ${host}: ${toAgentError(reason).message}`, { cause }));
            closeQuietly(request);
          }
        };
        const timer = clock.setTimer(() => finish('timeout', `no answer in ${timeoutMs} ms`), timeoutMs);
        try {
          request = new Request(options as ConstructorParameters<typeof Request>[0]);
        } catch (e) {
          finish('network', e, e);
          return;
        }
        guard(request, (e) => finish('network', e, e));
        request.callback = (message: number, value?: unknown, extra?: unknown) => {
          if (message === Request.requestFragment) {
            // The body in pieces the socket can take (a whole body over its free space aborts the machine).
            if (body === undefined || sent >= body.byteLength) return undefined;
            const piece = body.slice(sent, sent + Number(value));
            sent += piece.byteLength;
            return piece;
          }
          if (message === Request.status) response.status = Number(value);
          else if (message === Request.header) response.headers[String(value).toLowerCase()] = String(extra);
          else if (message === Request.responseComplete) {
            response.body = typeof value === 'string' ? value : '';
            finish();
          } else if (message === Request.error) finish('network', value ?? 'failed');
        };
      });
    },
  };
}
