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
import { AgentError, messageOf } from '../../src/errors.js';
import { utf8Length } from '../../src/utf8.js';
import type { Clock, HttpRequest, HttpResponse, HttpTransport, TimerHandle } from '../../src/ports.js';
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

/** A request waiting or in flight, and how its promise ends. */
interface Req {
  req: HttpRequest;
  timer?: TimerHandle;
  ok: (response: HttpResponse) => void;
  no: (error: unknown) => void;
}

const ignore = (): void => undefined;

// A promise's resolve and reject, taken by a function made once (preloaded, in flash): a function made while a
// request is made would copy its code into the heap's chunks (XS copies a closure's byte code when it is made at
// run time) for as long as the request lives, and a request may wait behind MAX_QUEUED others.
let ok: Req['ok'];
let no: Req['no'];
function take(resolve: Req['ok'], reject: Req['no']): void {
  ok = resolve;
  no = reject;
}

/** HTTP over one kept-alive connection; `secure` is SecureSocket's `secure` dictionary for https (boot.ts). */
export function moddableHttp(clock: Clock, timeoutMs: number, secure: Record<string, unknown>): HttpTransport {
  // The connection: its socket, where it goes (`s` for TLS, then host:port), and whether it carried a whole
  // answer.
  let sock: Sock | undefined;
  let to = '';
  let reused = false;
  let idle: TimerHandle | undefined;
  // Ends the connection's TLS turn, if it holds or waits for one.
  let turn = ignore;
  // No bytes (made here, not at the module's top level: a preloaded module's objects are read-only in flash).
  const EMPTY = new Uint8Array(0);
  // Requests not yet answered, in the order they came; `cur`, the first once it started, is in flight. Its
  // URL's parts, its bytes (made as it starts: a waiting request holds only what it was given), how many
  // were sent, its answer's bytes so far, and whether it was sent again.
  const queue: Req[] = [];
  let cur: Req | undefined;
  let host = '';
  let port = 0;
  let tls = false;
  let where = '';
  let out = EMPTY;
  let sent = 0;
  let got = EMPTY;
  let retried = false;

  const drop = (): void => {
    closeQuietly(sock);
    sock = undefined;
    turn();
  };

  // The connection's callback (`this`: its socket), made once per client, like every function below.
  function onSocket(this: Sock, message: number): void {
    if (sock !== this) return;
    if (cur) events(message);
    // Bytes or a close with no request in flight: the connection is done.
    else if (message === 2 || message < 0) drop();
  }

  const settle = (r: Req, error?: unknown, response?: HttpResponse): void => {
    const at = queue.indexOf(r);
    if (at < 0) return;
    queue.splice(at, 1);
    clock.clearTimer(r.timer);
    // Its bytes and its answer's go now (the request lives while its promise is referenced).
    if (cur === r) {
      cur = undefined;
      out = got = EMPTY;
    }
    if (queue.length) void Promise.resolve().then(next);
    else if (sock) idle = clock.setTimer(drop, IDLE_MS);
    if (error) r.no(error);
    else r.ok(response!);
  };

  // The request in flight fails, and the connection with it.
  const fail = (e: unknown): void => {
    drop();
    settle(cur!, new AgentError('network', `http ${host}: ${messageOf(e)}`, { cause: e }));
  };

  // The first request waiting, once none is in flight: on the connection if it goes there, else a new one.
  const next = (): void => {
    const r = queue[0];
    if (!r || cur) return;
    const { req } = r;
    let path: string;
    try {
      ({ host, port, secure: tls, path } = splitUrl(req.url));
    } catch (e) {
      // A URL that cannot be: this request fails, the connection stays.
      return settle(r, e);
    }
    cur = r;
    sent = 0;
    retried = false;
    clock.clearTimer(idle);
    const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    where = (tls ? 's' : '') + authority;
    let head = `${req.method} ${path} HTTP/1.1\r\nHost: ${authority}\r\n`;
    for (const name in req.headers) head += `${name}: ${req.headers[name]}\r\n`;
    const { body } = req;
    if (body !== undefined) head += `Content-Length: ${utf8Length(body)}\r\n`;
    out = new Uint8Array(ArrayBuffer.fromString(`${head}\r\n${body ?? ''}`));
    if (sock && to === where) write();
    else open();
  };
  // In pieces the socket can take, each at most one TLS record of the size asked for.
  const write = (): void => {
    for (let room; sent < out.length && (room = Math.min(sock!.write(), MAX_RECORD)) > 0; sent += room) {
      sock!.write(out.subarray(sent, sent + room));
    }
  };

  // The connection's events while a request is in flight; whatever fails rejects it.
  const events = (message: number): void => {
    const r = cur!;
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
      if (r.req.binary) response.bytes = whole.body;
      else response.body = text(whole.body, 0, whole.body.length);
      settle(r, undefined, response);
    } catch (e) {
      fail(e);
    }
  };

  // A new connection for the request in flight, from its first byte (the one before, if any, closed).
  const open = (): void => {
    drop();
    to = where;
    reused = false;
    sent = 0;
    // A secure connect waits while another handshake runs; plain: `turn` is spent (a second call does nothing).
    if (tls) turn = tlsTurn(connect);
    else connect(turn);
  };

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

  // A request's time is up, waiting or in flight.
  function expire(r: Req): void {
    if (cur === r) drop();
    settle(r, new AgentError('timeout', `http ${host}: no answer in ${timeoutMs} ms`));
  }

  return {
    request(req) {
      const answer = new Promise(take);
      if (queue.length > MAX_QUEUED) no(new AgentError('overflow', `http ${host}: ${MAX_QUEUED} requests waiting`));
      else {
        const r: Req = { req, ok, no };
        r.timer = clock.setTimer(expire.bind(undefined, r), timeoutMs);
        if (queue.push(r) === 1) next();
      }
      return answer;
    },
  };
}
