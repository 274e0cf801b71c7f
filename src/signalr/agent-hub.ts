/**
 * The one hub wiring of both targets: a HubClient for the agent's service, the
 * HubAgentLink that feeds it desired values and properties (resync on every
 * (re)connect), and the redaction of the connection tokens a negotiate hands
 * out. The Node and Moddable composition roots call it once the agent's first
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
  /** The configured access token (the caller keeps it redacted). */
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
  const { agent, logger, retry } = options;
  let previous = '';
  const hub = new HubClient({
    baseUrl: options.baseUrl,
    accessToken: () => options.token,
    http: options.http,
    sockets: options.sockets,
    clock: options.clock,
    logger,
    ...(retry && { retry }),
    // Connection tokens are secrets too; single-use, so only the current one is kept.
    onSecret: (token) => {
      logger.removeSecret(previous);
      logger.addSecret((previous = token));
    },
  });
  const link = new HubAgentLink(hub, agent, logger, agent.device && { deviceUid: agent.device.uid });
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
