/**
 * The one hub wiring of both targets: a HubClient for the agent's service, the
 * HubAgentLink that feeds it desired values and properties (resync on every
 * (re)connect), and the redaction of every secret a negotiate hands out. The
 * Node and Moddable composition roots call it once the agent's first
 * configuration attempt is over, and differ only in their sockets.
 */
import type { DesiredStateSink } from '../agent/desired.js';
import type { RedactingLogger } from '../log/redact.js';
import type { Clock, HttpTransport, WebSocketFactory } from '../ports.js';
import type { RetryPolicy } from '../retry/backoff.js';
import { HubAgentLink } from './agent-link.js';
import { HubClient } from './hub-client.js';

export interface AgentHubOptions {
  /** The agent (its `device` is read for the uid Notify messages are filtered on). */
  agent: DesiredStateSink & { readonly device: { uid: string } | undefined };
  baseUrl: string;
  /** The configured access token (kept redacted whatever a negotiate hands out). */
  token: string;
  http: HttpTransport;
  sockets: WebSocketFactory;
  clock: Clock;
  logger: RedactingLogger;
  /** Reconnect policy (tests use a short one). */
  retry?: RetryPolicy;
}

export interface AgentHub {
  hub: HubClient;
  link: HubAgentLink;
  stop(): void;
}

/** Builds the hub connection and the link, and starts connecting. */
export function startAgentHub(options: AgentHubOptions): AgentHub {
  const { agent, logger } = options;
  let previous: { connectionToken: string; accessToken: string } | undefined;
  const hub = new HubClient({
    baseUrl: options.baseUrl,
    accessToken: () => options.token,
    http: options.http,
    sockets: options.sockets,
    clock: options.clock,
    logger,
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    // Connection tokens are secrets too; only the current one is kept, they are single-use. A rotated access
    // token (a negotiate redirect) is redacted as well, and forgotten when it rotates again.
    onSecrets: (secrets) => {
      if (previous !== undefined) {
        logger.removeSecret(previous.connectionToken);
        if (previous.accessToken !== options.token) logger.removeSecret(previous.accessToken);
      }
      logger.addSecret(secrets.connectionToken);
      logger.addSecret(secrets.accessToken);
      previous = secrets;
    },
  });
  // Notify -> applyDesired, properties, resync on every (re)connect.
  const link = new HubAgentLink(hub, agent, logger, agent.device === undefined ? {} : { deviceUid: agent.device.uid });
  hub.start();
  return {
    hub,
    link,
    stop: () => {
      hub.stop();
      link.close();
    },
  };
}
