/**
 * Which property names a device has (spec 2.5, decisions 10): the names its
 * fixture entry gives, the names every device has (the list below, applied by
 * the catalog), and the names an admin defines by setting them. A set that
 * names any other property is 400 naming it, and stores nothing; a string value
 * is bounded (`limits.maxPropertyBytes`, 413 naming it); `null` is not a value.
 */
import type { PropertyValue } from './fixture.js';
import { badRequest, ServiceError } from './errors.js';
import { utf8Bytes, type ServiceLimits } from './limits.js';
import { isObject, PropertyNamePattern } from './wire.js';
import { everyDeviceProperties as firmwareProperties } from './firmware/properties.js';

/** A property every device has, with the value it starts with. */
export interface PropertyDefinition {
  readonly name: string;
  readonly initial: PropertyValue;
}

/**
 * The properties defined for every device, whatever the fixture says. Data,
 * not code: a feature adds its names here (a fixture value wins): the six
 * firmware properties (firmware/properties.ts, decisions 12), and
 * `provisioned-at`, which `npm run provision` sets with the device's own token
 * (decisions 8; '' until then).
 */
export const everyDeviceProperties: readonly PropertyDefinition[] = [
  ...firmwareProperties,
  { name: 'provisioned-at', initial: '' },
];

/** A device's starting properties: every device's definitions, then the fixture's own. */
export function initialProperties(
  fixtureValues: Record<string, PropertyValue>,
  every: readonly PropertyDefinition[] = everyDeviceProperties,
): Record<string, PropertyValue> {
  const out: Record<string, PropertyValue> = {};
  for (const d of every) out[d.name] = d.initial;
  return Object.assign(out, fixtureValues);
}

/** Who sets: an admin may define new names (up to the limit); a device only sets defined ones. */
export type Setter = 'admin' | 'device';

/**
 * Validates a `values` object of properties against a device's defined names;
 * throws 400 (or 413 for a long string) naming the property, before anything changes.
 */
export function checkPropertyValues(
  values: unknown,
  defined: Readonly<Record<string, PropertyValue>>,
  setter: Setter,
  limits: Pick<ServiceLimits, 'maxPropertyBytes' | 'maxPropertiesPerDevice'>,
): Record<string, PropertyValue> {
  if (!isObject(values)) throw badRequest('values: expected an object');
  const out: Record<string, PropertyValue> = {};
  let count = Object.keys(defined).length;
  for (const [name, v] of Object.entries(values)) {
    if (!PropertyNamePattern.test(name))
      throw badRequest(`values.${name}: property names match ${PropertyNamePattern.source}`);
    if (typeof v !== 'boolean' && typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v))) {
      throw badRequest(
        `values.${name}: expected a boolean, finite number or string${v === null ? ' (null is not a value)' : ''}`,
      );
    }
    if (!Object.hasOwn(defined, name)) {
      if (setter === 'device') throw badRequest(`values.${name}: no property "${name}" is defined for this device`);
      if (++count > limits.maxPropertiesPerDevice) {
        throw badRequest(`values.${name}: a device has at most ${limits.maxPropertiesPerDevice} properties`);
      }
    }
    if (typeof v === 'string' && utf8Bytes(v) > limits.maxPropertyBytes) {
      throw new ServiceError(
        'too-large',
        `values.${name}: a string property is at most ${limits.maxPropertyBytes} UTF-8 bytes`,
      );
    }
    out[name] = v;
  }
  return out;
}
