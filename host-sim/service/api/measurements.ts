/**
 * Measurements (spec 4.7): `measurements/write` and the reads. A metric is a
 * product metric of the fixture or any channel key of the device's product;
 * values may also be Location objects or other objects.
 */
import type { ServiceContext } from '../context.js';
import { badRequest } from '../errors.js';
import { asEntries } from '../http/query.js';
import type { Router } from '../http/router.js';
import type { Point, StoredValue } from '../store/storage.js';
import { writeTimestamp } from '../time.js';
import { metricSelection } from './names.js';
import { addReadRoutes, recordOf, type SeriesKind } from './reads.js';
import { resolveDevice } from './resolve.js';
import { HubNames } from '../wire.js';
import { checkMeasurementValue } from './values.js';

export const measurementsKind: SeriesKind = {
  field: 'metric',
  param: 'metrics',
  series: (context) => context.storage.measurements,
  selection: metricSelection,
  aggregates: (product, name) => product.metrics.get(name) ?? { aggregated: 'last', aggregatedLast: 'last' },
};

export function addMeasurementRoutes(router: Router, context: ServiceContext): void {
  router.add('POST', '/api/v1/measurements/write', (request) => {
    const device = resolveDevice(context.catalog, request.params, request.principal);
    const entries = asEntries(request.params.raw('measurements'), 'measurements');
    const points: Point[] = entries.map((e, i) => {
      const at = `measurements[${i}]`;
      const metric = e['metric'];
      if (typeof metric !== 'string') throw badRequest(`${at}.metric: expected a string`);
      if (!device.product.metrics.has(metric)) {
        throw badRequest(`${at}.metric: unknown metric "${metric}" for product "${device.product.name}"`);
      }
      const value = e['value'];
      checkMeasurementValue(device.product, metric, value, `${at}.value`, context.limits);
      return {
        device: device.uid,
        name: metric,
        tsMs: writeTimestamp(e, at, request.nowMs),
        value: value as StoredValue,
        error: undefined,
      };
    });
    context.storage.measurements.write(points);
    context.counters.recordsWritten('measurements', points.length);
    context.notifier.observe(device, () => ({
      type: HubNames.notifyMeasurements,
      entity: device.uid,
      measurements: points.map((point) => recordOf('metric', device, { point, aggregated: 'last' })),
    }));
    return {};
  });
  addReadRoutes(router, context, measurementsKind, '/api/v1/measurements');
}
