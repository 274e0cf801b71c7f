/**
 * SignalR negotiation (spec 4.8 step 1), version 1 only:
 * `POST {base}/hubs/properties/negotiate?negotiateVersion=1` with the bearer
 * token and an empty body; the answer's `connectionToken` opens
 * `{ws}/hubs/properties?id=<token>` (built without `URL`, absent on XS).
 *
 * What a device does not do (docs/realtime.md): follow `url` + `accessToken`
 * redirects, accept version 0 (`connectionId` without `connectionToken`), or
 * check `availableTransports` (the service offers WebSockets; if it did not,
 * opening the socket fails and the client retries). An answer without a
 * connection token is `wire.invalid`, and the client retries.
 */
import { nonEmpty, readObject, str } from '../reader.js';
import { AgentError, statusError } from '../errors.js';
import type { HttpTransport } from '../ports.js';
import { Paths } from '../wire.js';

export interface Negotiated {
  /** The WebSocket address to open, `id` query parameter included. Secret. */
  socketUrl: string;
  /** The connection token inside `socketUrl`. Secret, single-use. */
  connectionToken: string;
}

/**
 * Negotiates one connection. Rejects with AgentError `auth` (401/403, with
 * `status`), `http.status` (other non-2xx; a 429 or 503 with its `Retry-After`), `hub` (an `error` field),
 * `wire.invalid` (not JSON, no connection token) or `network` (the transport).
 */
export async function negotiate(http: HttpTransport, baseUrl: string, accessToken: string): Promise<Negotiated> {
  // An http(s) URL: its ws(s) form is `ws` and the rest.
  const base = baseUrl.replace(/\/$/, '');
  const { status, body, headers } = await http.request({
    method: 'POST',
    url: base + Paths.hubNegotiate + '?negotiateVersion=1',
    headers: { Authorization: 'Bearer ' + accessToken },
    body: '',
  });
  if (status < 200 || status > 299) {
    throw statusError(status, headers, `hub: negotiate HTTP ${status}`);
  }
  const o = readObject(body, 'negotiate');
  if (o['error'] != null) throw new AgentError('hub', 'hub: negotiate: ' + str(o['error'], 'error'));
  const connectionToken = nonEmpty(o['connectionToken'], 'connectionToken');
  return {
    socketUrl: 'ws' + base.slice(4) + Paths.hub + '?id=' + encodeURIComponent(connectionToken),
    connectionToken,
  };
}
