/**
 * The HttpTransport port on Moddable: one kept-alive HTTP/1.1 connection to the
 * service, over the SDK's TCP `Socket` (`securesocket` for https), carrying
 * every request, one at a time (docs/moddable.md, "The network").
 *
 * - Requests wait their turn in a bounded queue (MAX_QUEUED; beyond it
 *   `overflow`); each is bounded by `timeoutMs` from the call, queued or not
 *   (`timeout`; a request in flight then closes the connection).
 * - The connection opens with the first request and stays open while answers
 *   allow it (http-reader.ts: HTTP/1.1, no `Connection: close`, a delimited
 *   body); it is closed after IDLE_MS without a request, on any failure, and
 *   when the peer closes it. The next request opens a new one: the agent's
 *   back-off paces the retries of what failed.
 * - A request written on a connection that had carried an answer, and that
 *   ends before any byte of its own answer (the server closed the idle
 *   connection at its keep-alive timeout as the request left), is sent once
 *   more on a new connection; any other failure rejects with `network`.
 * - The socket's callback is ours and runs guarded: nothing the SDK throws
 *   there in an outage ("write failed" on a refused connection, "close on
 *   closed socket") reaches the machine (an XS abort). The request is UTF-8
 *   bytes with their byte count as Content-Length, written in pieces the
 *   socket can take (a write over its free space throws).
 * An error's message is one line: `http <host>: <reason>`.
 */
import { Socket } from 'socket';
import SecureSocket from 'securesocket';
import { AgentError, toAgentError } from '../../src/errors.js';
import { utf8Length } from '../../src/utf8.js';
import type { Clock, HttpRequest, HttpResponse, HttpTransport, TimerHandle } from '../../src/ports.js';
import { closeQuietly } from './guarded-socket.js';
import { responseReader, type ResponseReader } from './http-reader.js';
import { tlsTurn } from './tls-turn.js';
import { splitUrl } from './url.js';

/**
 * An idle connection is closed after this long: under the idle timeouts of the
 * usual servers and balancers (Fastify 72 s, AWS ALB 60 s), so that the board
 * closes first; the one-retry rule covers a server that closes sooner.
 */
export const IDLE_MS = 30_000;
/** Requests waiting for the connection, beyond the one in flight. */
export const MAX_QUEUED = 8;

/** What the SDK's `Socket` and `SecureSocket` share. */
interface Sock {
  callback: (message: number) => void;
  read(type: typeof ArrayBuffer): ArrayBuffer;
  write(...data: Uint8Array[]): number;
  close(): void;
}

/** One request: the connection it needs (`to`, and `tls`, `host` and `port`), its bytes, and how far they went. */
interface Job {
  to: string;
  tls: boolean;
  host: string;
  port: number;
  out: Uint8Array;
  sent: number;
  retried?: boolean;
  reader: ResponseReader;
  settle(error?: AgentError): void;
}

/** HTTP over one kept-alive connection; `secure` is SecureSocket's `secure` dictionary for https (boot.ts). */
export function moddableHttp(clock: Clock, timeoutMs: number, secure: Record<string, unknown>): HttpTransport {
  const queue: Job[] = [];
  let job: Job | undefined;
  // The connection: its socket, where it goes, and whether it carried a whole answer (reused).
  let sock: Sock | undefined;
  let to = '';
  let reused = false;
  let idle: TimerHandle | undefined;

  // Ends the TLS turn of the connection (tls-turn.ts), if it still holds or waits for it.
  let turn = (): void => undefined;

  const drop = (): void => {
    closeQuietly(sock);
    sock = undefined;
    turn();
  };

  const next = (): void => {
    if (job !== undefined) return;
    job = queue.shift();
    if (idle) clock.clearTimer(idle);
    idle = undefined;
    if (job === undefined) {
      if (sock !== undefined) idle = clock.setTimer(drop, IDLE_MS);
    } else if (sock === undefined || to !== job.to) open(job);
    else write(job);
  };

  const finish = (error?: AgentError): void => {
    const done = job!;
    job = undefined;
    done.settle(error);
    next();
  };

  // The connection closed (`reason` undefined) or failed while `job`, if any, used it.
  const fault = (reason?: unknown): void => {
    const wasReused = reused;
    drop();
    const current = job;
    if (current === undefined) return;
    if (current.reader.status === 0 && wasReused && !current.retried) {
      // The server closed a kept-alive connection as this request left: once more on a new one.
      current.retried = true;
      current.sent = 0;
      current.reader = responseReader();
      return open(current);
    }
    try {
      if (reason !== undefined) throw reason;
      current.reader.end();
      finish();
    } catch (e) {
      finish(new AgentError('network', `http ${current.host}: ${toAgentError(e).message}`, { cause: e }));
    }
  };

  const write = (current: Job): void => {
    const { out } = current;
    for (let room; current.sent < out.length && (room = sock!.write()) > 0; current.sent += room) {
      sock!.write(out.subarray(current.sent, current.sent + room));
    }
  };

  const onEvent = (message: number): void => {
    const current = job;
    if (message === 2) {
      // Bytes with no request (a peer talking out of turn): the connection is not to be trusted.
      if (current === undefined) return drop();
      const { reader } = current;
      reader.push(new Uint8Array(sock!.read(ArrayBuffer)));
      if (reader.done) {
        reused = true;
        if (!reader.keepAlive) drop();
        finish();
      }
    } else if (message === 1 || message === 3) {
      turn();
      if (current !== undefined) write(current);
    } else fault(message === -1 ? undefined : Error('connection failed'));
  };

  const open = (current: Job): void => {
    drop();
    to = current.to;
    reused = false;
    const connect = (done: () => void): void => {
      turn = done;
      try {
        // `Socket` takes no `secure` and ignores it.
        const options = { host: current.host, port: current.port, secure };
        const s = (sock = (current.tls ? new SecureSocket(options) : new Socket(options)) as unknown as Sock);
        s.callback = (message) => {
          if (sock !== s) return;
          try {
            onEvent(message);
          } catch (e) {
            // A fault inside the socket's callback: never back to the SDK (an XS abort).
            fault(e);
          }
        };
      } catch (e) {
        fault(e);
      }
    };
    // A secure connect waits while another handshake is in progress (tls-turn.ts).
    if (current.tls) turn = tlsTurn(connect);
    // Plain: no turn to take; `turn` is a no-op or an ended turn (a second `done` does nothing).
    else connect(turn);
  };

  return {
    request(req: HttpRequest): Promise<HttpResponse> {
      return new Promise((resolve, reject) => {
        const { host, port, secure: tls, path } = splitUrl(req.url);
        if (queue.length >= MAX_QUEUED)
          throw new AgentError('overflow', `http ${host}: ${MAX_QUEUED} requests waiting`);
        const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
        let head = `${req.method} ${path} HTTP/1.1\r\nHost: ${authority}\r\n`;
        for (const name in req.headers) head += `${name}: ${req.headers[name]}\r\n`;
        const { body } = req;
        if (body !== undefined) head += `Content-Length: ${utf8Length(body)}\r\n`;
        const out = new Uint8Array(ArrayBuffer.fromString(`${head}\r\n${body ?? ''}`));
        const timeout = (): void => {
          const error = new AgentError('timeout', `http ${host}: no answer in ${timeoutMs} ms`);
          if (job === entry) {
            drop();
            finish(error);
          } else {
            queue.splice(queue.indexOf(entry), 1);
            entry.settle(error);
          }
        };
        const timer = clock.setTimer(timeout, timeoutMs);
        const entry: Job = {
          to: (tls ? 's' : '') + authority,
          tls,
          host,
          port,
          out,
          sent: 0,
          reader: responseReader(),
          settle(error) {
            clock.clearTimer(timer);
            if (error !== undefined) return reject(error);
            const { reader } = entry;
            const bytes = reader.body();
            const answer: HttpResponse = { status: reader.status, headers: reader.headers, body: '' };
            if (req.binary) answer.bytes = bytes;
            else answer.body = String.fromArrayBuffer(bytes.buffer as ArrayBuffer);
            resolve(answer);
          },
        };
        queue.push(entry);
        next();
      });
    },
  };
}
