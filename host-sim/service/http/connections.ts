/**
 * The cap on open connections (decisions 10): the server counts its open
 * sockets (HTTP, HTTPS and the hub's, which start as HTTP); a connection beyond
 * `max` is answered 503 with `Retry-After` and closed before a byte of its
 * request is read, so a flood of idle sockets cannot take the service's memory
 * or file descriptors from the clients already connected.
 */
import type { Server, Socket } from 'node:net';
import { problemBody } from './problem.js';

export interface ConnectionCap {
  /** Sockets open now. */
  open(): number;
  /** Connections refused since start. */
  refused(): number;
  /** True for a socket that was answered 503 (its request, if parsed anyway, is not served). */
  isRefused(socket: unknown): boolean;
}

/** Counts `server`'s sockets and refuses those beyond `max`. `secureConnection` is used for TLS. */
export function capConnections(
  server: Server,
  max: number,
  retryAfterSeconds: number,
  log: (line: string) => void,
  tls: boolean,
): ConnectionCap {
  let open = 0;
  let refused = 0;
  const refusedSockets = new WeakSet<object>();
  const body = JSON.stringify(problemBody(503, `the service has ${max} connections open; retry later`));
  const answer =
    `HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: ${retryAfterSeconds}\r\n` +
    `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  server.prependListener(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    if (open >= max) {
      refused++;
      refusedSockets.add(socket);
      if (refused === 1 || refused % 1000 === 0) log(`service: ${refused} connections refused (${max} open)`);
      socket.on('error', () => undefined);
      socket.end(answer);
      // The request is never read: drop the socket once the answer is out.
      socket.once('finish', () => socket.destroy());
      return;
    }
    open++;
    socket.once('close', () => open--);
  });
  return {
    open: () => open,
    refused: () => refused,
    isRefused: (socket) => typeof socket === 'object' && socket !== null && refusedSockets.has(socket),
  };
}
