/**
 * Devices (spec 4.1): get, list, set. A device token may get its own device
 * only; listing and changing devices need an admin token (decisions 7).
 */
import { requireAdmin } from '../auth.js';
import { setDetails } from '../catalog.js';
import type { ServiceContext } from '../context.js';
import { badRequest } from '../errors.js';
import type { Router } from '../http/router.js';
import { listEntities, resolveDevice } from './resolve.js';
import { deviceView } from './views.js';

export function addDeviceRoutes(router: Router, context: ServiceContext): void {
  router.add('GET', '/api/v1/devices/get', (request) =>
    deviceView(resolveDevice(context.catalog, request.params, request.principal), request.baseUrl),
  );

  router.add('GET', '/api/v1/devices/list', (request) => {
    requireAdmin(request.principal, 'list devices');
    return listEntities(context.catalog, request.params, context.catalog.devices).map((d) =>
      deviceView(d, request.baseUrl),
    );
  });

  router.add('POST', '/api/v1/devices/set', (request) => {
    requireAdmin(request.principal, 'change device details');
    const device = resolveDevice(context.catalog, request.params, request.principal);
    // Types and non-empty names are checked by the route's body schema (http/routes.ts).
    const { enabled, name, key } = request.params.raw('values') as { enabled?: boolean; name?: string; key?: string };
    if (key !== undefined) {
      const other = context.catalog.deviceByRef(key);
      if (other && other !== device) throw badRequest(`values.key: "${key}" is already used by another device`);
    }
    if (setDetails(device, { enabled, name, key })) context.saveDevice(device);
    return {};
  });
}
