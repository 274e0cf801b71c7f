/**
 * The desired firmware (docs/decisions.md section 12): four device properties
 * set by a user, `fw-version`, `fw-url`, `fw-sha256` and `fw-sig`, read as
 * `unknown` from the wire (a `properties` Notify carries only the changed ones,
 * `properties/get` all), and the rules that decide whether a board acts on them:
 * all four set (non-empty), `fw-version` other than the running version, and
 * never lower than it unless the user pinned it (`=1.0.0`, docs/ota.md).
 */
import { isObject } from '../reader.js';

/** The property names of the contract (section 12). */
export const FwProperty = {
  version: 'fw-version',
  url: 'fw-url',
  sha256: 'fw-sha256',
  sig: 'fw-sig',
  running: 'fw-running',
  status: 'fw-status',
} as const;

const desiredNames = [FwProperty.version, FwProperty.url, FwProperty.sha256, FwProperty.sig] as const;

/** The four desired properties as last seen (a missing one is ''). */
export type DesiredProperties = Record<(typeof desiredNames)[number], string>;

/** An update to install, validated. */
export interface DesiredFirmware {
  /** The version to install, without the pin mark. */
  version: string;
  /** The user wrote `=<version>`: install it even when lower than the running one. */
  pinned: boolean;
  url: string;
  /** 32 bytes. */
  sha256: Uint8Array;
  /** DER ECDSA P-256 signature of the image's SHA-256. */
  signature: Uint8Array;
  /** `<fw-version> <fw-sha256>` as set (a pin included): names this update in the store and the logs. */
  id: string;
}

export function emptyDesired(): DesiredProperties {
  return { 'fw-version': '', 'fw-url': '', 'fw-sha256': '', 'fw-sig': '' };
}

/**
 * Merges the fw-* strings of a property object (a Notify's `values` or a
 * `properties/get` answer) into `into`; other properties are ignored. A fw-*
 * property that is not a string counts as unset (''). Answers whether any
 * of the four was named. Not an object: false.
 */
export function mergeDesired(into: DesiredProperties, values: unknown): boolean {
  if (!isObject(values)) return false;
  let named = false;
  for (const name of desiredNames) {
    if (!(name in values)) continue;
    const v = values[name];
    into[name] = typeof v === 'string' ? v.trim() : '';
    named = true;
  }
  return named;
}

/**
 * The update the four properties describe: undefined while any is unset;
 * a string naming the first bad one when one is malformed (the board reports
 * `failed EINVAL` and logs it).
 */
export function readDesired(p: DesiredProperties): DesiredFirmware | undefined | string {
  const raw = p['fw-version'];
  if (raw === '' || p['fw-url'] === '' || p['fw-sha256'] === '' || p['fw-sig'] === '') return undefined;
  const pinned = raw.startsWith('=');
  const version = pinned ? raw.slice(1) : raw;
  if (!/^[\w.+-]{1,64}$/.test(version)) return 'fw-version: expected 1 to 64 of [A-Za-z0-9_.+-], "=" first to pin';
  if (!/^https?:\/\/[^\s/?#]+\/\S*$/i.test(p['fw-url'])) return 'fw-url: expected an http(s) URL';
  const sha256 = fromHex(p['fw-sha256']);
  if (sha256?.length !== 32) return 'fw-sha256: expected 64 lowercase hex digits';
  const signature = fromBase64(p['fw-sig']);
  // A DER ECDSA P-256 signature: SEQUENCE of two INTEGERs, 8 to 72 bytes.
  if (signature === undefined || signature.length < 8 || signature.length > 72 || signature[0] !== 0x30)
    return 'fw-sig: expected the base64 of a DER ECDSA signature';
  return { version, pinned, url: p['fw-url'], sha256, signature, id: `${raw} ${p['fw-sha256']}` };
}

/**
 * Orders two versions: dot-separated parts, numeric parts as numbers, others
 * as strings, a missing part as 0 (`1.2` = `1.2.0` < `1.10`). Negative when
 * `a` is lower.
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    if (nx === nx && ny === ny) {
      if (nx !== ny) return nx - ny;
    } else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Lowercase hex to bytes; undefined for anything else (uppercase included: the contract says lowercase). */
export function fromHex(text: string): Uint8Array | undefined {
  if (!/^(?:[0-9a-f]{2})*$/.test(text)) return undefined;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 (padding optional) to bytes; undefined for anything else. */
export function fromBase64(text: string): Uint8Array | undefined {
  const body = text.replace(/={1,2}$/, '');
  if (body.length % 4 === 1 || !/^[A-Za-z0-9+/]*$/.test(body)) return undefined;
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let n = 0;
  for (let i = 0; i < body.length; i++) {
    acc = (acc << 6) | alphabet.indexOf(body.charAt(i));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** Whether two byte arrays are equal (every byte compared, whatever the first difference). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
