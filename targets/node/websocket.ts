/**
 * The Node adapter of the core's WebSocketFactory port, over the `ws` package:
 * text frames only, request headers (the hub's Authorization header) passed
 * through, and exactly one `onClose` per socket, whatever ends it (a refused
 * upgrade, with its HTTP status in the reason; an error; either side closing).
 * `wss://` checks the certificate like the HTTP adapter (`tls`: `--ca`,
 * `--insecure`); a failed check's reason names the host and why (docs/tls.md).
 */
import WebSocket from 'ws';
import { tlsFailure, type NodeTlsOptions } from './http.js';
import type { WebSocketConnection, WebSocketFactory, WebSocketHandlers } from '../../src/ports.js';

export interface NodeWebSocketOptions {
  /** Largest incoming frame accepted by `ws`, bytes. Default 1 MiB. */
  maxPayloadBytes?: number;
  /** Time allowed for the TCP + TLS + upgrade, ms. Default 15000. */
  handshakeTimeoutMs?: number;
  tls?: NodeTlsOptions;
}

export class NodeWebSocketFactory implements WebSocketFactory {
  constructor(private readonly options: NodeWebSocketOptions = {}) {}

  connect(url: string, headers: Readonly<Record<string, string>>, handlers: WebSocketHandlers): WebSocketConnection {
    const socket = new WebSocket(url, {
      headers: { ...headers },
      maxPayload: this.options.maxPayloadBytes ?? 1024 * 1024,
      handshakeTimeout: this.options.handshakeTimeoutMs ?? 15000,
      perMessageDeflate: false,
      ...(this.options.tls?.ca === undefined ? {} : { ca: this.options.tls.ca }),
      ...(this.options.tls?.insecure === true ? { rejectUnauthorized: false } : {}),
    });
    let closed = false;
    let reason = '';
    const closeOnce = (why: string): void => {
      if (closed) return;
      closed = true;
      handlers.onClose(why);
    };
    socket.on('open', () => handlers.onOpen());
    socket.on('message', (data, isBinary) => {
      if (isBinary) return; // The JSON hub protocol is text only.
      handlers.onMessage(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString());
    });
    socket.on('unexpected-response', (_request, response) => {
      reason = `upgrade refused: HTTP ${response.statusCode ?? 0}`;
      response.resume();
      socket.terminate();
    });
    socket.on('error', (error) => {
      if (reason === '') reason = tlsFailure(url, error)?.message ?? error.message;
    });
    socket.on('close', (code, text) => {
      closeOnce(reason !== '' ? reason : `closed (${code}${text.length > 0 ? ' ' + text.toString() : ''})`);
    });
    return {
      send(data: string): void {
        if (socket.readyState === WebSocket.OPEN) socket.send(data);
      },
      close(): void {
        if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
        else if (socket.readyState === WebSocket.OPEN) socket.close(1000);
      },
    };
  }
}
