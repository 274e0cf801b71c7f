/**
 * The settings a board is provisioned with (decisions 11: `POST /setup`), read
 * from an untrusted JSON body, and their public view for `GET /setup`, where a
 * secret (the token, the Wi-Fi password) shows only as `"set"` or is absent.
 * The rules are the board configuration's (targets/moddable/config.ts) plus
 * bounds that fit one NVS value each.
 */
import { fail, isObject } from '../reader.js';

/** What `POST /setup` carries. `ssid`, `password` and `caCert` only where they apply. */
export interface SetupSettings {
  serviceUrl: string;
  deviceKey: string;
  token: string;
  ssid?: string;
  password?: string;
  /** A PEM certificate (one or more `BEGIN CERTIFICATE` blocks) that the service's chain must end in. */
  caCert?: string;
}

/** The names of the settings, in the order they are stored and shown. */
export const SettingNames = ['serviceUrl', 'deviceKey', 'token', 'ssid', 'password', 'caCert'] as const;
export type SettingName = (typeof SettingNames)[number];

/** Settings never shown or logged: `GET /setup` says `"set"`. */
export const SecretNames: readonly SettingName[] = ['token', 'password'];

/** [pattern, what it means, largest length, required]. */
const RULES: Readonly<Record<SettingName, readonly [RegExp, string, number, boolean]>> = {
  serviceUrl: [/^https?:\/\/[^/\s?#]+(\/[^\s#]*)?$/, 'http(s)://host[:port][/path]', 256, true],
  deviceKey: [/^[^\s\x00-\x1f]+$/, 'a key without spaces', 128, true],
  token: [/^[\x21-\x7e]+$/, 'printable ASCII without spaces', 512, true],
  ssid: [/^[^\x00-\x1f]+$/, 'text', 32, false],
  password: [/^[\x20-\x7e]{8,63}$/, '8 to 63 printable ASCII characters', 63, false],
  caCert: [/^\s*-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/, 'a PEM certificate', 3900, false],
};

/**
 * Reads a `POST /setup` body (parsed JSON): throws AgentError `wire.invalid`
 * naming the first bad field (a secret's value is never shown, only its type).
 * Unknown fields are refused, so that a typo is not silently dropped.
 */
export function readSettings(body: unknown): SetupSettings {
  if (!isObject(body)) fail('settings', 'a JSON object', Array.isArray(body) ? 'array' : typeof body);
  for (const name in body) if (!(SettingNames as readonly string[]).includes(name)) fail(name, 'no such setting', '');
  const out: Record<string, string> = {};
  for (const name of SettingNames) {
    const [pattern, what, max, required] = RULES[name];
    const value = body[name];
    if (value === undefined || value === null || value === '') {
      if (required) fail(name, what, undefined);
      continue;
    }
    if (typeof value !== 'string' || value.length > max || !pattern.test(value))
      fail(name, `${what} (at most ${max} characters)`, SecretNames.includes(name) ? typeof value : value);
    out[name] = value;
  }
  out.serviceUrl = (out.serviceUrl as string).replace(/\/+$/, '');
  return out as unknown as SetupSettings;
}

/**
 * The public view of stored settings (`GET /setup`): every setting that is set,
 * a secret or the CA certificate as `"set"`.
 */
export function publicSettings(get: (name: SettingName) => unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SettingNames) {
    const value = get(name);
    if (typeof value !== 'string' || value === '') continue;
    out[name] = SecretNames.includes(name) || name === 'caCert' ? 'set' : value;
  }
  return out;
}
