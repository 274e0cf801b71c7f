/**
 * The fleet's device list: which devices to simulate and the access token of
 * each. From the local service's fixture (decisions.md section 7: every device
 * with a device token; `--product` keeps one product's devices) or from a CSV
 * of `key,token` lines (a `key,token` header, blank lines and `#` comments
 * allowed). Every device needs its own token: the service caps hub
 * connections per token.
 */
import { AgentError } from '../../src/errors.js';
import { validateFixture } from '../service/fixture.js';

export interface FleetMember {
  key: string;
  token: string;
}

export interface Roster {
  members: FleetMember[];
  /** Devices of the file left out: no device token of their own, or another product. */
  skipped: number;
}

function invalid(message: string): AgentError {
  return new AgentError('config.invalid', message);
}

/** Reads a fixture (JSON) or a CSV (anything else) from `text`; `name` is for messages. */
export function parseRoster(text: string, name: string, product?: string): Roster {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) return fromFixture(text, name, product);
  if (product !== undefined) throw invalid(`--product needs a fixture file; ${name} is a CSV`);
  return fromCsv(text, name);
}

function fromFixture(text: string, name: string, product: string | undefined): Roster {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw invalid(`${name}: ${(e as Error).message}`);
  }
  const fixture = validateFixture(body);
  const tokenOf = new Map<string, string>();
  const owners = new Map<string, number>();
  for (const t of fixture.tokens) {
    if (t.role !== 'device') continue;
    owners.set(t.device, (owners.get(t.device) ?? 0) + 1);
    if (!tokenOf.has(t.device)) tokenOf.set(t.device, t.token);
  }
  if (product !== undefined && !fixture.products.some((p) => p.uid === product)) {
    throw invalid(`--product ${product}: no such product in ${name}`);
  }
  const members: FleetMember[] = [];
  let skipped = 0;
  for (const device of fixture.devices) {
    const token = tokenOf.get(device.uid);
    if (token === undefined || (product !== undefined && device.product !== product)) skipped++;
    else members.push({ key: device.key, token });
  }
  return { members, skipped };
}

function fromCsv(text: string, name: string): Roster {
  const members: FleetMember[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(',').map((f) => f.trim());
    if (fields.length !== 2 || fields[0] === '' || fields[1] === '') {
      throw invalid(`${name} line ${i + 1}: expected "key,token"`);
    }
    const [key, token] = fields as [string, string];
    if (members.length === 0 && seen.size === 0 && key.toLowerCase() === 'key' && token.toLowerCase() === 'token') {
      continue; // the header
    }
    if (seen.has(key)) throw invalid(`${name} line ${i + 1}: device ${key} appears twice`);
    seen.add(key);
    members.push({ key, token });
  }
  return { members, skipped: 0 };
}
