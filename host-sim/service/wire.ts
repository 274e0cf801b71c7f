/**
 * The names of the specification the service needs (spec 2, 4), read and kept
 * here independently of the agent's copy: HTTP paths, hub names and message
 * types, aggregates, location sub-channels, property names; plus the JSON
 * object guard every validator starts from.
 */

/** A parsed JSON object (a value from the wire, not yet validated). */
export type JsonObject = { [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Series aggregates (spec 2.6). */
export const Aggregates = ['derivative.1s', 'derivative.1m', 'derivative.1h', 'last', 'max', 'mean', 'min'] as const;
export const LastAggregates = ['derivative.1s', 'derivative.1m', 'derivative.1h', 'last'] as const;
export type Aggregate = (typeof Aggregates)[number];
export type LastAggregate = (typeof LastAggregates)[number];

/** Location sub-channels (spec 2.6 location form). */
export const LocationFields = ['lat', 'lon', 'alt', 'pdop', 'hdop', 'vdop', 'sats'] as const;

/** Property names (spec 2.5). */
export const PropertyNamePattern = /^[a-z0-9][a-z0-9_-]+$/;

/** Hub paths (spec 4.8). */
export const HubPaths = { hub: '/hubs/properties', negotiate: '/hubs/properties/negotiate' } as const;

/** SignalR JSON hub protocol message types (spec 4.8). */
export const HubMessageType = {
  invocation: 1,
  streamItem: 2,
  completion: 3,
  streamInvocation: 4,
  cancelInvocation: 5,
  ping: 6,
  close: 7,
} as const;

/** Hub method names and Notify argument types (spec 4.8, decisions 5). */
export const HubNames = {
  notify: 'Notify',
  setProperties: 'SetProperties',
  notifyStates: 'states',
  notifyProperties: 'properties',
  notifyMeasurements: 'measurements',
} as const;

/** Deepest nesting of arrays and objects accepted in a request body or hub message. */
export const maxJsonDepth = 32;

/**
 * True when `value` nests arrays/objects deeper than `limit` (a scalar is depth
 * 0, `{}` depth 1). Iterative, so a hostile document cannot overflow the stack.
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
