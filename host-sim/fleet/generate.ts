/**
 * `npm run fleet -- --generate N [--out FILE]`: a fixture for the local
 * service (decisions.md section 7) with one fleet product of four channels
 * (two analog inputs, a digital input and a digital output, every one scanned
 * each `scanMs` and reported every scan), N devices `fleet-00001` ..., each
 * with a token of its own, and one admin token. Serve it with
 * `npm run service -- --fixture FILE`, then point the fleet at the same file.
 */
import { randomBytes } from 'node:crypto';
import type { Fixture } from '../service/fixture.js';

export const fleetProductUid = 'f1ee7000-0000-4000-8000-000000000001';

export interface GenerateOptions {
  devices: number;
  /** Scan interval of every channel, ms. Default 1000. */
  scanMs?: number;
  /** Random bytes for tokens (injected by tests). Default crypto.randomBytes. */
  random?: (bytes: number) => Uint8Array;
}

/** Key of fleet device `i` (0-based). */
export function fleetDeviceKey(i: number): string {
  return `fleet-${String(i + 1).padStart(5, '0')}`;
}

function uid(kind: number, i: number): string {
  return `f1ee7000-0000-4000-8${kind.toString(16).padStart(3, '0')}-${(i + 1).toString(16).padStart(12, '0')}`;
}

function token(random: (bytes: number) => Uint8Array): string {
  return Buffer.from(random(18)).toString('base64url');
}

/** The fleet fixture; throws RangeError for a device count outside 1 .. 999999. */
export function generateFleetFixture(options: GenerateOptions): Fixture {
  const { devices } = options;
  if (!Number.isInteger(devices) || devices < 1 || devices > 999_999) {
    throw new RangeError(`--generate: expected 1 .. 999999 devices, got ${devices}`);
  }
  const scanInterval = options.scanMs ?? 1000;
  const random = options.random ?? ((n: number) => randomBytes(n));
  const channel = (i: number, fields: Record<string, unknown>): Record<string, unknown> => ({
    uid: uid(2, i),
    scanInterval,
    aggregated: 'last',
    aggregatedLast: 'last',
    order: i + 1,
    visible: true,
    transmitEvents: [],
    ...fields,
  });
  const product = {
    uid: fleetProductUid,
    name: 'Fleet sensor board',
    enabled: true,
    buses: [],
    channels: [
      channel(0, {
        key: 'temperature',
        name: 'Temperature',
        type: 'analogInput',
        pin: 34,
        scaleGain: 0.1,
        scaleOffset: -40,
      }),
      channel(1, { key: 'humidity', name: 'Humidity', type: 'analogInput', pin: 35, scaleGain: 0.025 }),
      channel(2, { key: 'door', name: 'Door contact', type: 'digitalInput', pin: 4 }),
      channel(3, { key: 'relay', name: 'Relay', type: 'digitalOutput', pin: 5 }),
    ],
    metrics: [],
  };
  const fixture: Fixture = { products: [product], locations: [], devices: [], relations: [], tokens: [] };
  fixture.tokens.push({ token: `admin-${token(random)}`, role: 'admin' });
  for (let i = 0; i < devices; i++) {
    const device = uid(3, i);
    const key = fleetDeviceKey(i);
    fixture.devices.push({
      uid: device,
      key,
      name: `Fleet board ${i + 1}`,
      enabled: true,
      product: fleetProductUid,
      properties: {},
    });
    fixture.tokens.push({ token: `${key}-${token(random)}`, role: 'device', device });
  }
  return fixture;
}
