/**
 * Properties (spec 4.4) and channels (spec 4.5). Setting properties, over HTTP
 * or the hub's `SetProperties`, overwrites only the given names that differ
 * and pushes `Notify` with the changed ones (decisions 5).
 */
import { HubNames as Hub, isObject, PropertyNamePattern } from '../wire.js';
import type { Device } from '../catalog.js';
import type { ServiceContext } from '../context.js';
import type { PropertyValue } from '../fixture.js';
import { badRequest, forbidden } from '../errors.js';
import type { Router } from '../http/router.js';
import { resolveDevice } from './resolve.js';

/** Validates a `values` object of properties; throws 400 naming the property. */
export function parsePropertyValues(values: unknown): Record<string, PropertyValue> {
  if (!isObject(values)) throw badRequest('values: expected an object');
  const out: Record<string, PropertyValue> = {};
  for (const [name, v] of Object.entries(values)) {
    if (!PropertyNamePattern.test(name))
      throw badRequest(`values.${name}: property names match ${PropertyNamePattern.source}`);
    if (typeof v !== 'boolean' && typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v))) {
      throw badRequest(`values.${name}: expected a boolean, number or string`);
    }
    out[name] = v;
  }
  return out;
}

/** Applies validated values; notifies the changed ones; returns the whole property object. */
export function applyProperties(
  context: ServiceContext,
  device: Device,
  values: Record<string, PropertyValue>,
  except?: unknown,
): Record<string, PropertyValue> {
  const changed: Record<string, PropertyValue> = {};
  for (const [name, v] of Object.entries(values)) {
    if (device.properties[name] !== v) changed[name] = device.properties[name] = v;
  }
  if (Object.keys(changed).length > 0) {
    context.saveCatalog();
    context.notifier.notify(device, { type: Hub.notifyProperties, entity: device.uid, values: changed }, except);
  }
  return { ...device.properties };
}

export function addPropertyRoutes(router: Router, context: ServiceContext): void {
  const get = (request: Parameters<Parameters<Router['add']>[2]>[0]): unknown => ({
    ...resolveDevice(context.catalog, request.params, request.principal).properties,
  });
  router.add('GET', '/api/v1/properties/get', get);
  router.add('POST', '/api/v1/properties/get', get);

  router.add('POST', '/api/v1/properties/set', (request) => {
    const device = resolveDevice(context.catalog, request.params, request.principal);
    applyProperties(context, device, parsePropertyValues(request.params.raw('values')));
    return {};
  });

  // Channels (spec 4.5): `device`, or `entity` as a Product or Device Unique ID.
  router.add('GET', '/api/v1/channels/list', (request) => {
    const entityUid = request.params.string('entity');
    const product = context.catalog.entities.get(entityUid ?? '');
    if (product?.kind === 'product' && request.params.string('device') === undefined) {
      if (request.principal.role === 'device') {
        const own = context.catalog.deviceByRef(request.principal.device);
        if (own?.product !== product) throw forbidden('entity: a device token may read only its own product');
      }
      return { buses: product.buses, channels: product.channels };
    }
    const device = resolveDevice(context.catalog, request.params, request.principal);
    return { buses: device.product.buses, channels: device.product.channels };
  });
}
