/**
 * A fleet scenario (`--scenario FILE`, JSON, or YAML by extension): events at
 * seconds from the start of the run. No file, or no events, is the steady
 * scenario.
 *
 *   { "events": [
 *       { "at": 30, "kind": "outage", "seconds": 30 },
 *       { "at": 90, "kind": "broadcast", "channel": "relay", "value": true },
 *       { "at": 20, "kind": "churn", "devices": 50, "downSeconds": 5 } ] }
 *
 * outage: the fleet's link to the service is cut for `seconds` (link.ts).
 * broadcast: `<channel>.desired` is written to every device, each with its own
 * token; the run measures the time until every device's echo on
 * `<channel>.reported` reached the service. churn: `devices` devices, spread
 * over the fleet, reboot (stop, `downSeconds` off, start again on the same store).
 */
import { parse as parseYaml } from 'yaml';
import { AgentError } from '../../src/errors.js';

export type FleetEvent =
  | { at: number; kind: 'outage'; seconds: number }
  | { at: number; kind: 'broadcast'; channel: string; value: boolean | number | string }
  | { at: number; kind: 'churn'; devices: number; downSeconds: number };

export interface FleetScenario {
  events: FleetEvent[];
}

function invalid(where: string, message: string): AgentError {
  return new AgentError('config.invalid', `scenario ${where}: ${message}`);
}

function number(o: Record<string, unknown>, field: string, where: string, min: number): number {
  const v = o[field];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min) {
    throw invalid(where, `"${field}" must be a number >= ${min}`);
  }
  return v;
}

function event(raw: unknown, where: string): FleetEvent {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(where, 'expected an object');
  const o = raw as Record<string, unknown>;
  const at = number(o, 'at', where, 0);
  switch (o['kind']) {
    case 'outage':
      return { at, kind: 'outage', seconds: number(o, 'seconds', where, 0.001) };
    case 'broadcast': {
      const channel = o['channel'];
      const value = o['value'];
      if (typeof channel !== 'string' || !/^[^.\s]+$/.test(channel)) {
        throw invalid(where, '"channel" must be a channel key (no dots)');
      }
      if (typeof value !== 'boolean' && typeof value !== 'number' && typeof value !== 'string') {
        throw invalid(where, '"value" must be a boolean, number or string');
      }
      return { at, kind: 'broadcast', channel, value };
    }
    case 'churn': {
      const devices = number(o, 'devices', where, 1);
      if (!Number.isInteger(devices)) throw invalid(where, '"devices" must be an integer');
      return { at, kind: 'churn', devices, downSeconds: number(o, 'downSeconds', where, 0) };
    }
    default:
      throw invalid(where, `"kind" must be outage, broadcast or churn, got ${JSON.stringify(o['kind'])}`);
  }
}

/** Parses a scenario; throws AgentError `config.invalid` naming the bad event. */
export function parseFleetScenario(text: string, yaml: boolean): FleetScenario {
  let body: unknown;
  try {
    body = yaml ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw invalid('file', (e as Error).message);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('file', 'expected an object');
  const events = (body as Record<string, unknown>)['events'] ?? [];
  if (!Array.isArray(events)) throw invalid('file', '"events" must be an array');
  return { events: events.map((e, i) => event(e, `events[${i}]`)).sort((a, b) => a.at - b.at) };
}
