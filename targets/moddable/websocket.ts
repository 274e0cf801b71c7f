/**
 * The WebSocketFactory port on Moddable, over the SDK's `websocket` Client
 * (text frames only).
 *
 * Limits of that client, and what this adapter does about them:
 * - It delivers every data frame as a message and ignores FIN; continuation
 *   frames and 64-bit lengths are not supported. Each text frame is passed on
 *   as a message: the SignalR record decoder (src/signalr/record-codec.ts)
 *   reassembles records split across frames, so a hub that splits a record over
 *   several complete text frames still works.
 * - Binary frames are refused: the connection is closed with a reason.
 * - An incoming message over `MAX_MESSAGE_BYTES` closes the connection (the bound
 *   of this buffer, STYLE.md practice 9), with a reason.
 * - It cannot send 64 KiB or more in one frame: `send` throws AgentError
 *   `too-large` before writing anything, so the stream is never corrupted.
 * - Its socket callback throws in ordinary outages ("write failed" on a refused
 *   connection, "close on closed socket"), which would abort the machine: the
 *   client's socket callback runs guarded (guarded-socket.ts), and a failure there closes the connection
 *   with a reason (`onClose`), as a disconnect does. A failed `send` closes it
 *   too and throws AgentError `network`.
 */
import { Client } from 'websocket';
import { AgentError, messageOf } from '../../src/errors.js';
import type { WebSocketConnection, WebSocketFactory, WebSocketHandlers } from '../../src/ports.js';
import { exceedsBytes } from '../../src/utf8.js';
import { closeQuietly, socketOptions } from './guarded-socket.js';
import { tlsTurn } from './tls-turn.js';

/** The client's largest frame (16-bit length). */
export const MAX_SEND_BYTES = 65_535;

const CONNECTED = 2;
const RECEIVE = 3;
const DISCONNECT = 4;

/** The bound of an incoming message (STYLE.md practice 9). */
export const MAX_MESSAGE_BYTES = 16_384;

/**
 * WebSockets over the SDK's `websocket` Client; `secure` is SecureSocket's `secure` dictionary for wss (boot.ts).
 * `connect` is this module's function bound, not a method made here: XS copies the byte code of a function
 * made at run time by preloaded code (with every function inside it) into the chunk heap for its lifetime.
 */
export function moddableWebSockets(secure: Record<string, unknown>): WebSocketFactory {
  return { connect: connect.bind(undefined, secure) };
}

/** One connection to `url` (`secure`: wss settings), its events to `handlers`. */
function connect(
  secure: Record<string, unknown>,
  url: string,
  headers: Readonly<Record<string, string>>,
  handlers: WebSocketHandlers,
): WebSocketConnection {
  let closed = false;
  const options = socketOptions(url, headers, secure);
  let client: Client | undefined;
  // Ends the TLS turn of a wss connect (tls-turn.ts), if it still holds or waits for it.
  let turn = (): void => undefined;
  const close = (reason: string): void => {
    if (closed) return;
    closed = true;
    closeQuietly(client);
    turn();
    try {
      handlers.onClose(reason);
    } catch {
      // The core's handler must not reach the SDK's callback.
    }
  };
  const fail = (e: unknown): void => close('network: ' + messageOf(e));
  const start = (done: () => void): void => {
    turn = done;
    try {
      client = new Client(options as ConstructorParameters<typeof Client>[0]);
    } catch (e) {
      return fail(e);
    }
    // The callback the client gave its socket runs guarded (guarded-socket.ts says why): a throw there
    // closes the connection with its reason; once closed, the socket is not heard from again.
    const socket = (client as unknown as { socket: { callback(message: number, value?: unknown): void } }).socket;
    const handler = socket.callback;
    socket.callback = (message, value) => {
      if (closed) return;
      try {
        handler(message, value);
      } catch (e) {
        fail(e);
      }
    };
    client.callback = (message: number, value?: unknown) => {
      if (closed) return;
      if (message === CONNECTED) handlers.onOpen();
      else if (message === RECEIVE) {
        if (typeof value !== 'string') close('binary frame');
        else if (exceedsBytes(value, MAX_MESSAGE_BYTES)) close(`message over ${MAX_MESSAGE_BYTES} B`);
        else handlers.onMessage(value);
      } else if (message === DISCONNECT) close('disconnected');
      // 1: the socket is connected, its TLS handshake done.
      else turn();
    };
  };
  // wss waits while another TLS handshake is in progress (the HTTP connection's).
  if (options.secure !== undefined) turn = tlsTurn(start);
  else start(turn);
  return {
    send(data: string) {
      if (closed) throw new AgentError('closed', 'websocket: closed');
      if (exceedsBytes(data, MAX_SEND_BYTES)) {
        throw new AgentError('too-large', `websocket: message over ${MAX_SEND_BYTES} B`);
      }
      try {
        client!.write(data);
      } catch (e) {
        const reason = 'write failed: ' + messageOf(e);
        close(reason);
        throw new AgentError('network', `websocket ${options.host}: ${reason}`, { cause: e });
      }
    },
    close: () => close('closed by the agent'),
  };
}
