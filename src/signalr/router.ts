/**
 * Routes the hub messages of a connected socket (spec 4.8): Completions to the
 * pending invocations, Invocations to the handlers (with an error Completion
 * when the server wants an answer), Close to the socket's end, and Ping, stream
 * and unknown types to nothing. A malformed record is logged and dropped; no
 * exception leaves `route`.
 */
import { AgentError, toAgentError } from '../errors.js';
import type { Logger } from '../ports.js';
import type { HandlerRegistry } from './handlers.js';
import type { HubSocket } from './hub-socket.js';
import type { PendingInvocations } from './invocations.js';
import { errorCompletion, parseHubMessage } from './messages.js';

export class MessageRouter {
  /** Records dropped because they failed validation. */
  malformed = 0;

  readonly #pending: PendingInvocations;
  readonly #handlers: HandlerRegistry;
  readonly #logger: Logger;
  readonly #encode: (message: unknown) => string;

  constructor(
    pending: PendingInvocations,
    handlers: HandlerRegistry,
    logger: Logger,
    encode: (message: unknown) => string,
  ) {
    this.#encode = encode;
    this.#pending = pending;
    this.#handlers = handlers;
    this.#logger = logger;
  }

  /** Handles one record of a connected socket. Never throws. */
  route(socket: HubSocket, text: string): void {
    try {
      this.#dispatch(socket, text);
    } catch (e) {
      this.malformed++;
      this.#logger.log('warn', 'hub: message dropped', { reason: toAgentError(e).message });
    }
  }

  #dispatch(socket: HubSocket, text: string): void {
    const m = parseHubMessage(text);
    switch (m.kind) {
      case 'completion':
        if (!this.#pending.complete(m)) {
          this.#logger.log('debug', 'hub: late or unknown completion ignored', { id: m.invocationId });
        }
        return;
      case 'invocation':
        this.#handlers.dispatch(m.target, m.arguments);
        if (m.invocationId !== undefined) {
          // The device does not return results to the server (no client results).
          const answer = errorCompletion(m.invocationId, `Client does not answer '${m.target}' invocations.`);
          socket.send(this.#encode(answer));
        }
        return;
      case 'close': {
        const reason = `server closed the connection: ${m.error ?? 'no reason given'}`;
        return socket.end(new AgentError('hub', reason), m.allowReconnect);
      }
      case 'ping':
        return;
      case 'ignored':
        return this.#logger.log('debug', 'hub: message type ignored', { type: String(m.type) });
    }
  }
}
