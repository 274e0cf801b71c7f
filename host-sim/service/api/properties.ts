/**
 * Properties (spec 4.4) and channels (spec 4.5). Setting properties, over HTTP
 * or the hub's `SetProperties`, checks them whole against the device's defined
 * names (property-definitions.ts), overwrites only the given names that differ,
 * stores those rows only and pushes `Notify` with the changed ones (decisions 5, 10).
 */
import { HubNames as Hub } from '../wire.js';
import type { Principal } from '../auth.js';
import type { Device } from '../catalog.js';
import type { ServiceContext } from '../context.js';
import type { PropertyValue } from '../fixture.js';
import { forbidden } from '../errors.js';
import { checkPropertyValues } from '../property-definitions.js';
import type { Router } from '../http/router.js';
import { resolveDevice } from './resolve.js';

/** Validates `values` for a device (defined names, bounded strings); throws 400/413 naming the property. */
export function parsePropertyValues(
  context: ServiceContext,
  device: Device,
  values: unknown,
  principal: Principal,
): Record<string, PropertyValue> {
  return checkPropertyValues(values, device.properties, principal.role, context.limits);
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
    context.saveProperties(device, changed);
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
    const values = parsePropertyValues(context, device, request.params.raw('values'), request.principal);
    applyProperties(context, device, values);
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
