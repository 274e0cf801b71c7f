/**
 * SignalR negotiation (spec 4.8 step 1): `POST {hub}/negotiate?negotiateVersion=1`
 * with the bearer token and an empty body. Accepts version 1 (`connectionToken`)
 * and version 0 (`connectionId` is the token), ignores unknown fields, fails on
 * an `error` field, follows `url` + `accessToken` redirects (at most 5), and maps
 * 401/403 to AgentError `auth` so the caller does not retry it blindly.
 * Builds the WebSocket address `{ws}/hubs/properties?id=<token>` without `URL`
 * (absent on XS).
 */
import { AgentError } from '../errors.js';
import { asObject, optNumber, optString, type WireObject } from '../config/fields.js';
import type { HttpTransport } from '../ports.js';
import { Paths } from '../wire.js';

/** Redirects followed before giving up (the official client's limit). */
export const maxNegotiateRedirects = 5;

export interface Negotiated {
  /** The WebSocket address to open, `id` query parameter included. Secret. */
  socketUrl: string;
  /** The access token for the socket's Authorization header (a redirect may replace it). */
  accessToken: string;
  /** The connection token (or v0 connection id) inside `socketUrl`. Secret. */
  connectionToken: string;
}

/** `http://h/x` → `ws://h/x`, `https://` → `wss://`; ws(s) addresses unchanged. */
export function toSocketUrl(httpUrl: string): string {
  if (httpUrl.startsWith('https://')) return 'wss://' + httpUrl.slice(8);
  if (httpUrl.startsWith('http://')) return 'ws://' + httpUrl.slice(7);
  return httpUrl;
}

/** Appends `name=value` (value URL-encoded) to an address that may have a query already. */
export function withQuery(url: string, name: string, value: string): string {
  return url + (url.includes('?') ? '&' : '?') + name + '=' + encodeURIComponent(value);
}

/** `{hub}?q` → `{hub}/negotiate?q&negotiateVersion=1`. */
export function negotiateUrl(hubUrl: string): string {
  const q = hubUrl.indexOf('?');
  const path = q === -1 ? hubUrl : hubUrl.slice(0, q);
  const query = q === -1 ? '' : hubUrl.slice(q);
  const url = path + (path.endsWith('/') ? '' : '/') + 'negotiate' + query;
  return withQuery(url, 'negotiateVersion', '1');
}

/** The hub address under a service base URL (`http://host:port[/prefix]`). */
export function hubUrl(baseUrl: string): string {
  return (baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl) + Paths.hub;
}

function parseBody(body: string): WireObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    throw new AgentError('wire.invalid', 'negotiate: response is not JSON', { cause: e });
  }
  return asObject(parsed, 'negotiate response');
}

/** True when `availableTransports` is absent or lists WebSockets with Text. */
function offersWebSockets(o: WireObject): boolean {
  const list = o['availableTransports'];
  if (!Array.isArray(list)) return true;
  return list.some((t: unknown) => {
    if (typeof t !== 'object' || t === null) return false;
    const entry = t as WireObject;
    const formats = entry['transferFormats'];
    return entry['transport'] === 'WebSockets' && (!Array.isArray(formats) || formats.includes('Text'));
  });
}

/**
 * Negotiates one connection. Rejects with AgentError `auth` (401/403, with
 * `status`), `http.status` (other non-2xx), `hub` (an `error` field, too many
 * redirects, no connection token), `unsupported` (no WebSockets transport),
 * `wire.invalid` (not JSON) or `network` (from the transport).
 */
export async function negotiate(http: HttpTransport, baseUrl: string, accessToken: string): Promise<Negotiated> {
  let url = hubUrl(baseUrl);
  let token = accessToken;
  for (let redirects = 0; ; redirects++) {
    const response = await http.request({
      method: 'POST',
      url: negotiateUrl(url),
      headers: { Authorization: `Bearer ${token}` },
      body: '',
    });
    if (response.status === 401 || response.status === 403) {
      throw new AgentError('auth', `negotiate refused: HTTP ${response.status}`, { status: response.status });
    }
    if (response.status < 200 || response.status > 299) {
      throw new AgentError('http.status', `negotiate failed: HTTP ${response.status}`, { status: response.status });
    }
    const o = parseBody(response.body);
    const error = optString(o, 'error');
    if (error !== undefined) throw new AgentError('hub', `negotiate: ${error}`);
    const redirect = optString(o, 'url');
    if (redirect !== undefined) {
      if (redirects >= maxNegotiateRedirects) throw new AgentError('hub', 'negotiate: too many redirects');
      url = redirect;
      token = optString(o, 'accessToken') ?? token;
      continue;
    }
    if (!offersWebSockets(o))
      throw new AgentError('unsupported', 'negotiate: the server offers no WebSockets transport');
    const version = optNumber(o, 'negotiateVersion') ?? 0;
    const id = version >= 1 ? optString(o, 'connectionToken') : optString(o, 'connectionId');
    if (id === undefined || id === '') throw new AgentError('hub', 'negotiate: no connection token in the response');
    return { socketUrl: withQuery(toSocketUrl(url), 'id', id), accessToken: token, connectionToken: id };
  }
}
