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
import { asObject, isObject, optNumber, optString, type WireObject } from '../reader.js';
import type { HttpTransport } from '../ports.js';
import { Paths } from '../wire.js';
import { readJson } from './record-codec.js';

/** Redirects followed before giving up (the official client's limit). */
const maxRedirects = 5;

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
  return httpUrl.replace(/^http/, 'ws');
}

/** Appends `name=value` (value URL-encoded) to an address that may have a query already. */
function withQuery(url: string, name: string, value: string): string {
  return url + (url.includes('?') ? '&' : '?') + name + '=' + encodeURIComponent(value);
}

/** `{hub}?q` → `{hub}/negotiate?q&negotiateVersion=1`. */
export function negotiateUrl(hubUrl: string): string {
  const q = hubUrl.includes('?') ? hubUrl.indexOf('?') : hubUrl.length;
  const path = hubUrl.slice(0, q);
  return withQuery(path + (path.endsWith('/') ? '' : '/') + 'negotiate' + hubUrl.slice(q), 'negotiateVersion', '1');
}

/** True when `availableTransports` is absent or lists WebSockets with Text. */
function offersWebSockets(o: WireObject): boolean {
  const list = o['availableTransports'];
  if (!Array.isArray(list)) return true;
  return list.some((t: unknown) => {
    if (!isObject(t) || t['transport'] !== 'WebSockets') return false;
    const formats = t['transferFormats'];
    return !Array.isArray(formats) || formats.includes('Text');
  });
}

/**
 * Negotiates one connection. Rejects with AgentError `auth` (401/403, with
 * `status`), `http.status` (other non-2xx), `hub` (an `error` field, too many
 * redirects, no connection token), `unsupported` (no WebSockets transport),
 * `wire.invalid` (not JSON) or `network` (from the transport).
 */
export async function negotiate(http: HttpTransport, baseUrl: string, accessToken: string): Promise<Negotiated> {
  let url = baseUrl.replace(/\/$/, '') + Paths.hub;
  let token = accessToken;
  for (let redirects = 0; ; redirects++) {
    const { status, body } = await http.request({
      method: 'POST',
      url: negotiateUrl(url),
      headers: { Authorization: `Bearer ${token}` },
      body: '',
    });
    if (status < 200 || status > 299) {
      const code = status === 401 || status === 403 ? 'auth' : 'http.status';
      throw new AgentError(code, `negotiate refused: HTTP ${status}`, { status });
    }
    const o = asObject(readJson(body, 'negotiate'), 'negotiate');
    const error = optString(o, 'error');
    if (error !== undefined) throw new AgentError('hub', `negotiate: ${error}`);
    const redirect = optString(o, 'url');
    if (redirect === undefined) {
      if (!offersWebSockets(o)) throw new AgentError('unsupported', 'negotiate: no WebSockets transport offered');
      const v1 = (optNumber(o, 'negotiateVersion') ?? 0) >= 1;
      const id = optString(o, v1 ? 'connectionToken' : 'connectionId');
      if (id === undefined || id === '') throw new AgentError('hub', 'negotiate: no connection token');
      return { socketUrl: withQuery(toSocketUrl(url), 'id', id), accessToken: token, connectionToken: id };
    }
    if (redirects >= maxRedirects) throw new AgentError('hub', 'negotiate: too many redirects');
    url = redirect;
    token = optString(o, 'accessToken') ?? token;
  }
}
