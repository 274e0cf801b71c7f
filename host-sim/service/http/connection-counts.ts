/**
 * The service's connections, counted, and TLS session resumption offered.
 *
 * Counting: every TCP connection the server accepts (HTTP requests and hub
 * upgrades alike), every TLS handshake completed, and how many of those resumed
 * a session, so that tests can prove a client keeps its connection
 * (docs/moddable.md, docs/tls.md).
 *
 * Resumption: Node's TLS server resumes TLS 1.3 and ticket-capable TLS 1.2
 * clients by itself, but a TLS 1.2 client that offers only a session ID (the
 * Moddable SDK's TLS: `ssl/cache` keeps one session per host) is resumed only
 * when the server answers `newSession`/`resumeSession` (Node's session cache is
 * external). Kept here in memory, bounded (MAX_SESSIONS, oldest out first).
 */
import type { Server as NetServer, Socket } from 'node:net';
import type { Server as TlsServer, TLSSocket } from 'node:tls';

/** The bound of the session cache (one entry per client session, about 100 B each). */
export const MAX_SESSIONS = 1024;

export interface ConnectionCounts {
  /** TCP connections accepted. */
  readonly accepted: number;
  /** TLS handshakes completed (0 without TLS). */
  readonly tls: number;
  /** Of those, handshakes that resumed an earlier session. */
  readonly resumed: number;
  /** TCP connections open now. */
  readonly open: number;
  /** Whether a session ID is resumed (default true); off, every handshake is a full one (to measure both). */
  resumption: boolean;
  /** Destroys every open connection (a network failure, as the client sees it). */
  dropAll(): void;
}

/** Counts `server`'s connections; with `tls`, also offers session-ID resumption. Returns a live view. */
export function watchConnections(server: NetServer, tls: boolean): ConnectionCounts {
  const sockets = new Set<Socket>();
  const counts = {
    accepted: 0,
    tls: 0,
    resumed: 0,
    get open() {
      return sockets.size;
    },
    resumption: true,
    dropAll: () => sockets.forEach((socket) => socket.destroy()),
  };
  server.on('connection', (socket: Socket) => {
    counts.accepted++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  if (!tls) return counts;
  const secure = server as TlsServer;
  secure.on('secureConnection', (socket: TLSSocket) => {
    counts.tls++;
    if (socket.isSessionReused()) counts.resumed++;
  });
  const sessions = new Map<string, Buffer>();
  secure.on('newSession', (id: Buffer, data: Buffer, done: () => void) => {
    if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    sessions.set(id.toString('hex'), data);
    done();
  });
  secure.on('resumeSession', (id: Buffer, done: (error: Error | null, data: Buffer | null) => void) =>
    done(null, (counts.resumption && sessions.get(id.toString('hex'))) || null),
  );
  return counts;
}
