/**
 * A value fits its channel (decisions 10), for states (`.reported` and
 * `.desired`) and measurements: a boolean channel takes booleans, a number
 * channel finite numbers (and, for 64-bit integer types, their decimal
 * strings, decisions 2), a location `lat` in [-90, 90] and `lon` in [-180, 180]
 * with every field a finite number; an `error` is an integer in [-4095, -1].
 * Channels of other types take a boolean, a finite number or a bounded string.
 * Anything else is 400 naming the entry.
 */
import type { Product } from '../catalog.js';
import { badRequest } from '../errors.js';
import { utf8Bytes, type ServiceLimits } from '../limits.js';
import { isObject, LocationFields, type JsonObject } from '../wire.js';

/** The lowest state error number (-MAX_ERRNO, as Linux bounds errno). */
export const minErrorNumber = -4095;

type Kind = 'boolean' | 'number' | 'int64' | 'location' | 'any';

const int64Types = new Set(['int64', 'uint64']);
const decimalInteger = /^-?(0|[1-9]\d{0,19})$/;

/** What values a channel takes, from its `type` and `dataType`/`customType`. */
export function kindOf(channel: JsonObject | undefined): Kind {
  const type = channel?.['type'];
  if (type === 'digitalInput' || type === 'digitalOutput') return 'boolean';
  if (type === 'analogInput' || type === 'analogOutput') return 'number';
  if (type === 'location') return 'location';
  if (type === 'custom') {
    const custom = channel?.['customType'];
    return custom === 'boolean' ? 'boolean' : custom === 'number' || custom === 'decimal' ? 'number' : 'any';
  }
  if (type === 'modbus' || type === 'can') {
    const dataType = channel?.['dataType'];
    if (dataType === 'bool') return 'boolean';
    return typeof dataType === 'string' && int64Types.has(dataType) ? 'int64' : 'number';
  }
  return 'any';
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Checks one location field (`lat`, `lon`, `alt`, ...); throws 400 naming `at`. */
function checkLocationField(field: string, v: unknown, at: string): void {
  if (!finite(v)) throw badRequest(`${at}: ${field} must be a finite number`);
  if (field === 'lat' && (v < -90 || v > 90)) throw badRequest(`${at}: lat must be in [-90, 90], got ${v}`);
  if (field === 'lon' && (v < -180 || v > 180)) throw badRequest(`${at}: lon must be in [-180, 180], got ${v}`);
}

function checkScalar(kind: Kind, v: unknown, at: string, limits: ServiceLimits): void {
  if (kind === 'boolean') {
    if (typeof v !== 'boolean') throw badRequest(`${at}: this channel takes a boolean`);
  } else if (kind === 'number') {
    if (!finite(v)) throw badRequest(`${at}: this channel takes a finite number`);
  } else if (kind === 'int64') {
    if (!finite(v) && !(typeof v === 'string' && decimalInteger.test(v)))
      throw badRequest(`${at}: this channel takes a finite number or a decimal integer string`);
  } else if (!(typeof v === 'boolean' || finite(v) || typeof v === 'string')) {
    throw badRequest(`${at}: expected a boolean, finite number or string`);
  } else if (typeof v === 'string' && utf8Bytes(v) > limits.maxStateStringBytes) {
    throw badRequest(`${at}: a string value is at most ${limits.maxStateStringBytes} UTF-8 bytes`);
  }
}

/** A state's value for the channel `key` (with `sub`, a location field); throws 400 naming `at`. */
export function checkStateValue(
  product: Product,
  key: string,
  sub: string | undefined,
  value: unknown,
  at: string,
  limits: ServiceLimits,
): void {
  const kind = kindOf(product.channelByKey.get(key));
  if (kind === 'location') {
    if (sub !== undefined) checkLocationField(sub, value, at);
    else checkScalar('number', value, at, limits);
    return;
  }
  checkScalar(kind, value, at, limits);
}

/** A state error: an integer in [-4095, -1]; throws 400 naming `at`. */
export function checkStateError(error: unknown, at: string): void {
  if (typeof error !== 'number' || !Number.isInteger(error) || error >= 0 || error < minErrorNumber) {
    throw badRequest(`${at}: expected a negative POSIX error number from -1 to ${minErrorNumber} (e.g. -5 for EIO)`);
  }
}

/** A measurement's value for `metric`; throws 400 naming `at`. */
export function checkMeasurementValue(
  product: Product,
  metric: string,
  value: unknown,
  at: string,
  limits: ServiceLimits,
): void {
  const kind = kindOf(product.channelByKey.get(metric));
  if (kind === 'location' || (kind === 'any' && isObject(value))) {
    if (!isObject(value)) throw badRequest(`${at}: a location channel takes an object of ${LocationFields.join(', ')}`);
    if (utf8Bytes(JSON.stringify(value)) > limits.maxMeasurementObjectBytes)
      throw badRequest(`${at}: an object value is at most ${limits.maxMeasurementObjectBytes} bytes of JSON`);
    for (const [field, v] of Object.entries(value)) {
      if (kind === 'location' && !(LocationFields as readonly string[]).includes(field))
        throw badRequest(`${at}: "${field}" is not one of ${LocationFields.join(', ')}`);
      if (kind === 'location' || field === 'lat' || field === 'lon') checkLocationField(field, v, at);
    }
    return;
  }
  checkScalar(kind, value, at, limits);
}
