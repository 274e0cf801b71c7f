/**
 * The dashboard's HTTP client of the Device Data Service (spec 4): every call
 * sends `Authorization: Bearer <token>` (spec 5.1), every answer is `unknown`
 * until a validator below has checked the fields the dashboard uses.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type Scalar = boolean | number | string;

export interface DeviceInfo {
  uid: string;
  key: string;
  name: string;
  enabled: boolean;
}

/** A state or measurement record (spec 2.6 / 2.7), the product prefix removed from its name. */
export interface SeriesRecord {
  /** `temperature.reported`, `gps.lat.reported`, or a metric key. */
  name: string;
  entity: string;
  value?: unknown;
  error?: number;
  /** Unix ms. */
  tsMs: number;
}

type Query = Record<string, string | string[] | undefined>;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(o: Record<string, unknown>, k: string, what: string): string {
  const v = o[k];
  if (typeof v !== 'string') throw new ApiError(0, `${what}.${k}: expected a string`);
  return v;
}

export function parseDevice(v: unknown): DeviceInfo {
  if (!isObject(v)) throw new ApiError(0, 'device: expected an object');
  return {
    uid: str(v, 'uid', 'device'),
    key: str(v, 'key', 'device'),
    name: str(v, 'name', 'device'),
    enabled: v['enabled'] === true,
  };
}

/** A read record; its `channel` or `metric` loses the `<product uid>:` prefix. */
export function parseRecord(v: unknown, field: 'channel' | 'metric'): SeriesRecord {
  if (!isObject(v)) throw new ApiError(0, 'record: expected an object');
  const full = str(v, field, 'record');
  const ts = v['timestamp'];
  if (typeof ts !== 'number' || !Number.isFinite(ts)) throw new ApiError(0, 'record.timestamp: expected a number');
  const r: SeriesRecord = {
    name: full.slice(full.indexOf(':') + 1),
    entity: str(v, 'entity', 'record'),
    tsMs: ts * 1000,
  };
  if (typeof v['error'] === 'number') r.error = v['error'];
  else r.value = v['value'];
  return r;
}

function list<T>(v: unknown, what: string, parse: (item: unknown) => T): T[] {
  if (!Array.isArray(v)) throw new ApiError(0, `${what}: expected an array`);
  return v.map(parse);
}

export class Api {
  constructor(
    readonly token: string,
    private readonly base = '',
  ) {}

  private call(method: 'GET' | 'POST', path: string, query: Query, body?: unknown): Promise<unknown> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) qs.append(k, one);
    }
    return this.send(method, `${this.base}/api/v1/${path}${qs.size > 0 ? `?${qs.toString()}` : ''}`, body);
  }

  private async send(method: 'GET' | 'POST', url: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    if (!res.ok) {
      let detail = text;
      try {
        const p: unknown = JSON.parse(text);
        if (isObject(p) && typeof p['detail'] === 'string') detail = p['detail'];
      } catch {
        // not problem+json: the text itself is the detail
      }
      throw new ApiError(res.status, `${res.status}: ${detail}`);
    }
    return JSON.parse(text) as unknown;
  }

  async listDevices(q: string): Promise<DeviceInfo[]> {
    return list(await this.call('GET', 'devices/list', { q: q === '' ? undefined : q }), 'devices', parseDevice);
  }

  async getDevice(device: string): Promise<DeviceInfo> {
    return parseDevice(await this.call('GET', 'devices/get', { device }));
  }

  /** The raw `channels/list` answer; `channels.ts` validates it. */
  channels(device: string): Promise<unknown> {
    return this.call('GET', 'channels/list', { device });
  }

  /** The latest states of `device`, or of every device the token may see. */
  async lastStates(device: string | undefined, channels = ['*.reported', '*.desired']): Promise<SeriesRecord[]> {
    const q = { device, channels };
    return list(await this.call('GET', 'states/read/last', q), 'states', (r) => parseRecord(r, 'channel'));
  }

  async readStates(
    device: string,
    channels: string[],
    startS: number,
    stopS: number,
    windowS?: number,
  ): Promise<SeriesRecord[]> {
    const q: Query = { devices: device, channels, timeRangeStart: String(startS), timeRangeStop: String(stopS) };
    if (windowS !== undefined) q['windowPeriod'] = `${Math.max(1, Math.round(windowS))}s`;
    return list(await this.call('GET', 'states/read', q), 'states', (r) => parseRecord(r, 'channel'));
  }

  async readMeasurements(
    device: string,
    metrics: string[],
    startS: number,
    stopS: number,
    windowS?: number,
  ): Promise<SeriesRecord[]> {
    const q: Query = { devices: device, metrics, timeRangeStart: String(startS), timeRangeStop: String(stopS) };
    if (windowS !== undefined) q['windowPeriod'] = `${Math.max(1, Math.round(windowS))}s`;
    return list(await this.call('GET', 'measurements/read', q), 'measurements', (r) => parseRecord(r, 'metric'));
  }

  /** The latest measurement of every metric of `device`. */
  async lastMeasurements(device: string): Promise<SeriesRecord[]> {
    const v = await this.call('GET', 'measurements/read/last', { device });
    return list(v, 'measurements', (r) => parseRecord(r, 'metric'));
  }

  async writeDesired(device: string, channel: string, value: Scalar): Promise<void> {
    await this.call('POST', 'states/write', {}, { device, states: [{ channel: `${channel}.desired`, value }] });
  }

  async properties(device: string): Promise<Record<string, Scalar>> {
    const v = await this.call('GET', 'properties/get', { device });
    if (!isObject(v)) throw new ApiError(0, 'properties: expected an object');
    const out: Record<string, Scalar> = {};
    for (const [k, x] of Object.entries(v))
      if (typeof x === 'boolean' || typeof x === 'number' || typeof x === 'string') out[k] = x;
    return out;
  }

  async setProperties(device: string, values: Record<string, Scalar>): Promise<void> {
    await this.call('POST', 'properties/set', {}, { device, values });
  }

  /** The service's firmware folder (`GET /firmware`, admin; docs/service.md "Firmware images"). */
  async firmwareImages(): Promise<FirmwareImage[]> {
    return list(await this.send('GET', `${this.base}/firmware`), 'firmware', parseFirmwareImage);
  }
}

export interface FirmwareImage {
  name: string;
  size: number;
  sha256: string;
  /** `fw-sig` stored beside the image as NAME.sig, when there is one. */
  sig?: string;
}

export function parseFirmwareImage(v: unknown): FirmwareImage {
  if (!isObject(v)) throw new ApiError(0, 'firmware image: expected an object');
  const size = v['size'];
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
    throw new ApiError(0, 'firmware image.size: expected a whole number');
  const sha256 = str(v, 'sha256', 'firmware image');
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new ApiError(0, 'firmware image.sha256: expected 64 hex digits');
  const image: FirmwareImage = { name: str(v, 'name', 'firmware image'), size, sha256 };
  if (typeof v['sig'] === 'string') image.sig = v['sig'];
  return image;
}
