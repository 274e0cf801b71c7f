/**
 * The HttpTransport port on Moddable: one kept-alive HTTP/1.1 connection to the
 * service, over the SDK's TCP `Socket` (`securesocket` for https), carrying
 * every request, one at a time (docs/moddable.md, "The network").
 *
 * - Requests take turns in the order they came; at most MAX_QUEUED wait beside
 *   the one in flight (beyond: `overflow`). Each is bounded by `timeoutMs`
 *   from the call, waiting or not (`timeout`; one in flight then closes the
 *   connection).
 * - The connection opens with the first request and stays open while answers
 *   allow it (http-reader.ts); it is closed after IDLE_MS without a request, on
 *   any failure, and when the peer closes it. The next request opens a new one:
 *   the agent's back-off paces the retries of what failed.
 * - A request written on a connection that had carried an answer, and that
 *   ends before any byte of its own answer (the server closed the idle
 *   connection at its keep-alive timeout as the request left), is sent once
 *   more on a new connection; any other failure rejects with `network`, one
 *   line: `http <host>: <reason>`.
 * - The socket's callback never throws: nothing the SDK throws there in an
 *   outage ("write failed" on a refused connection, "close on closed socket")
 *   reaches the machine (an XS abort). A secure connect takes its turn
 *   (tls-turn.ts). The request is UTF-8 bytes with their byte count as
 *   Content-Length, written in pieces the socket can take (a write over its
 *   free space throws).
 */
import { Socket } from 'socket';
import SecureSocket from 'securesocket';
import { AgentError, toAgentError } from '../../src/errors.js';
import { utf8Length } from '../../src/utf8.js';
import type { Clock, HttpResponse, HttpTransport, TimerHandle } from '../../src/ports.js';
import { closeQuietly } from './guarded-socket.js';
import { MAX_ANSWER_BYTES, readAnswer, text, type Answer } from './http-reader.js';
import { tlsTurn } from './tls-turn.js';
import { splitUrl } from './url.js';

/**
 * An idle connection is closed after this long: under the idle timeouts of the
 * usual servers and balancers (Fastify 72 s, AWS ALB 60 s), so that the board
 * closes first; the one-retry rule covers a server that closes sooner.
 */
export const IDLE_MS = 30_000;
/** The TLS records' size secure.ts asks of the server (RFC 6066 max_fragment_length), and of the pieces written. */
export const MAX_RECORD = 2048;
/** Requests waiting for the connection, beyond the one in flight. */
export const MAX_QUEUED = 8;

/** What the SDK's `Socket` and `SecureSocket` share. */
interface Sock {
  callback: (this: Sock, message: number) => void;
  read(type: typeof ArrayBuffer): ArrayBuffer;
  write(...data: Uint8Array[]): number;
  close(): void;
}

const ignore = (): void => undefined;

/** HTTP over one kept-alive connection; `secure` is SecureSocket's `secure` dictionary for https (boot.ts). */
export function moddableHttp(clock: Clock, timeoutMs: number, secure: Record<string, unknown>): HttpTransport {
  // The connection: its socket, where it goes, and whether it carried a whole answer.
  let sock: Sock | undefined;
  let to = '';
  let reused = false;
  let idle: TimerHandle | undefined;
  // Ends the connection's TLS turn, if it holds or waits for one.
  let turn = ignore;
  // The socket events of the request in flight; requests not yet answered; the end of the last one's turn.
  let on: ((message: number) => void) | undefined;
  let pending = 0;
  let last = Promise.resolve();

  const drop = (): void => {
    closeQuietly(sock);
    sock = undefined;
    turn();
  };

  // The connection's callback (`this`: its socket), made here and not in a request: a callback made in the
  // request that opened the connection kept that request's scope (its bytes, its closures' code copied into
  // chunks: main is preloaded) for the connection's life.
  function onSocket(this: Sock, message: number): void {
    if (sock !== this) return;
    if (on) on(message);
    // Bytes or a close with no request in flight: the connection is done.
    else if (message === 2 || message < 0) drop();
  }

  return {
    request(req) {
      let start = ignore;
      const answer = new Promise<HttpResponse>((resolve, reject) => {
        const { host, port, secure: tls, path } = splitUrl(req.url);
        if (pending > MAX_QUEUED) throw new AgentError('overflow', `http ${host}: ${MAX_QUEUED} requests waiting`);
        pending++;
        const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
        const where = (tls ? 's' : '') + authority;
        let head = `${req.method} ${path} HTTP/1.1\r\nHost: ${authority}\r\n`;
        for (const name in req.headers) head += `${name}: ${req.headers[name]}\r\n`;
        const { body } = req;
        if (body !== undefined) head += `Content-Length: ${utf8Length(body)}\r\n`;
        const out = new Uint8Array(ArrayBuffer.fromString(`${head}\r\n${body ?? ''}`));
        let got = new Uint8Array(0);
        let sent = 0;
        let retried = false;
        let settled = false;

        const settle = (error?: AgentError, response?: HttpResponse): void => {
          if (settled) return;
          settled = true;
          clock.clearTimer(timer);
          if (on === events) on = undefined;
          if (!--pending && sock) idle = clock.setTimer(drop, IDLE_MS);
          if (error) reject(error);
          else resolve(response!);
        };

        const fail = (e: unknown): void => {
          drop();
          settle(new AgentError('network', `http ${host}: ${toAgentError(e).message}`, { cause: e }));
        };

        // In pieces the socket can take, each at most one TLS record of the size asked for.
        const write = (): void => {
          for (let room; sent < out.length && (room = Math.min(sock!.write(), MAX_RECORD)) > 0; sent += room) {
            sock!.write(out.subarray(sent, sent + room));
          }
        };

        // The connection's events while this request is in flight; whatever fails rejects it.
        const events = (message: number): void => {
          try {
            let whole: Answer | undefined;
            if (message === 2) {
              const bytes = new Uint8Array(sock!.read(ArrayBuffer));
              const joined = new Uint8Array(got.length + bytes.length);
              joined.set(got);
              joined.set(bytes, got.length);
              got = joined;
              if (got.length > MAX_ANSWER_BYTES) throw Error(`answer over ${MAX_ANSWER_BYTES} B`);
              if (!(whole = readAnswer(got, false))) return;
              reused = true;
              if (!whole.keep) drop();
            } else if (message > 0) {
              // Connected (1) or room to write (3).
              turn();
              return write();
            } else {
              const wasReused = reused;
              drop();
              // The server closed a kept-alive connection as this request left: once more on a new one.
              if (!got.length && wasReused && !retried) {
                retried = true;
                return open();
              }
              if (message < -1 || !(whole = readAnswer(got, true)))
                throw Error(message < -1 ? 'connection failed' : 'closed before the whole answer');
            }
            const response: HttpResponse = { status: whole.status, headers: whole.headers, body: '' };
            if (req.binary) response.bytes = whole.body;
            else response.body = text(whole.body, 0, whole.body.length);
            // The answer's bytes go now (the request's scope lives while its promise is referenced).
            got = new Uint8Array(0);
            settle(undefined, response);
          } catch (e) {
            fail(e);
          }
        };

        // A new connection for this request (the one before, if any, closed).
        const open = (): void => {
          drop();
          to = where;
          reused = false;
          // The request from its start.
          sent = 0;
          const connect = (done: () => void): void => {
            turn = done;
            try {
              // `Socket` takes no `secure` and ignores it.
              const Made = (tls ? SecureSocket : Socket) as unknown as new (options: object) => Sock;
              (sock = new Made({ host, port, secure })).callback = onSocket;
            } catch (e) {
              fail(e);
            }
          };
          // A secure connect waits while another handshake runs; plain: `turn` is spent (a second call does nothing).
          if (tls) turn = tlsTurn(connect);
          else connect(turn);
        };

        const timer = clock.setTimer(() => {
          if (on === events) drop();
          settle(new AgentError('timeout', `http ${host}: no answer in ${timeoutMs} ms`));
        }, timeoutMs);

        start = () => {
          if (settled) return;
          clock.clearTimer(idle);
          on = events;
          if (sock && to === where) write();
          else open();
        };
      });
      const before = last;
      last = before.then(() => answer.then(ignore, ignore));
      void before.then(() => start());
      return answer;
    },
  };
}
