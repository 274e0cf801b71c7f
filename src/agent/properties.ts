/**
 * The device's properties (spec 2.5): a flat object of booleans, numbers and
 * strings, read at start (`properties/get`), updated from the hub (decisions 5:
 * a `properties` Notify carries the changed ones, a SetProperties result the
 * whole set), cached in the store for offline boots, and announced to the
 * application through listeners (each wrapped: a throwing listener is logged).
 */
import { isObject } from '../reader.js';
import { AgentError, toAgentError } from '../errors.js';
import type { KeyValueStore, Logger } from '../ports.js';
import type { ServiceClient } from '../service/client.js';
import { PropertyNamePattern } from '../wire.js';
import type { Value } from './driver.js';

export type PropertyValues = Readonly<Record<string, Value>>;
export type PropertiesListener = (values: PropertyValues, changed: PropertyValues) => void;

const storeKey = 'agent/properties';

/** Validates a properties object from the wire; bad entries are skipped with a reason. */
export function parseProperties(body: unknown): { values: Record<string, Value>; skipped: string[] } {
  if (!isObject(body)) throw new AgentError('wire.invalid', 'properties: expected an object');
  const values: Record<string, Value> = {};
  const skipped: string[] = [];
  for (const [name, v] of Object.entries(body)) {
    if (!PropertyNamePattern.test(name)) skipped.push(`${name}: bad name`);
    else if (typeof v === 'boolean' || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) {
      values[name] = v;
    } else skipped.push(`${name}: not a boolean, number or string`);
  }
  return { values, skipped };
}

export class Properties {
  private current: Record<string, Value> = {};
  private readonly listeners: PropertiesListener[] = [];

  constructor(
    private readonly store: KeyValueStore,
    private readonly logger: Logger,
  ) {
    try {
      const cached = store.get(storeKey);
      if (cached === undefined) return;
      this.current = parseProperties(JSON.parse(cached) as unknown).values;
    } catch (e) {
      this.logger.log('warn', 'cached properties unreadable; ignored', {
        key: storeKey,
        reason: e instanceof Error ? e.message : String(e),
      });
    }
  }

  get values(): PropertyValues {
    return this.current;
  }

  onChange(listener: PropertiesListener): void {
    this.listeners.push(listener);
  }

  /** Merges (or, with `replace`, replaces) and tells the listeners what changed. */
  update(values: PropertyValues, replace: boolean): void {
    const next: Record<string, Value> = replace ? {} : { ...this.current };
    const changed: Record<string, Value> = {};
    for (const [name, v] of Object.entries(values)) {
      next[name] = v;
      if (this.current[name] !== v) changed[name] = v;
    }
    const removed = replace && Object.keys(this.current).some((k) => !(k in next));
    this.current = next;
    try {
      this.store.set(storeKey, JSON.stringify(next));
    } catch {
      this.logger.log('warn', 'properties not cached (store refused them)');
    }
    if (Object.keys(changed).length === 0 && !removed) return;
    for (const listener of this.listeners) {
      try {
        listener(this.current, changed);
      } catch (e) {
        this.logger.log('error', 'a properties listener threw', { reason: e instanceof Error ? e.message : String(e) });
      }
    }
  }
}

/**
 * Reads `devices/get` (the device's uid and name) and `properties/get` (which
 * replaces the property set). Failures are logged, not thrown: the agent runs
 * on with what it has cached.
 */
export async function readDeviceAndProperties(
  client: ServiceClient,
  properties: Properties,
  logger: Logger,
): Promise<{ uid: string; name: string } | undefined> {
  try {
    const device = await client.deviceGet();
    const { values, skipped } = parseProperties(await client.propertiesGet());
    if (skipped.length > 0) logger.log('warn', 'properties skipped', { skipped: skipped.join('; ') });
    properties.update(values, true);
    if (!isObject(device) || typeof device['uid'] !== 'string') return undefined;
    return { uid: device['uid'], name: typeof device['name'] === 'string' ? device['name'] : '' };
  } catch (e) {
    logger.log('warn', 'device or properties not read', { reason: toAgentError(e).message });
    return undefined;
  }
}
