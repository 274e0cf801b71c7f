/**
 * States (spec 4.6): `states/write` with the rules of the specification (value
 * xor error, error only on `.reported`, default timestamp now, a value that fits
 * its channel: values.ts) and the reads.
 * A write is validated whole before anything is stored (one transaction), and
 * its `.desired` records are pushed as one `Notify` (decisions 5).
 */
import type { ServiceContext } from '../context.js';
import { badRequest } from '../errors.js';
import { asEntries } from '../http/query.js';
import type { Router } from '../http/router.js';
import type { Point } from '../store/storage.js';
import { writeTimestamp } from '../time.js';
import { parseStateName, stateSelection } from './names.js';
import { addReadRoutes, recordOf, type SeriesKind } from './reads.js';
import { resolveDevice } from './resolve.js';
import { checkStateError, checkStateValue } from './values.js';
import { HubNames as Hub } from '../wire.js';

export const statesKind: SeriesKind = {
  field: 'channel',
  param: 'channels',
  series: (context) => context.storage.states,
  selection: stateSelection,
  aggregates(product, name) {
    const channel = product.channelByKey.get(name.slice(0, name.indexOf('.')));
    const a = channel?.['aggregated'];
    const l = channel?.['aggregatedLast'];
    return {
      aggregated: typeof a === 'string' ? (a as never) : 'last',
      aggregatedLast: typeof l === 'string' ? (l as never) : 'last',
    };
  },
};

export function addStateRoutes(router: Router, context: ServiceContext): void {
  router.add('POST', '/api/v1/states/write', (request) => {
    const device = resolveDevice(context.catalog, request.params, request.principal);
    const entries = asEntries(request.params.raw('states'), 'states');
    const points: Point[] = entries.map((e, i) => {
      const at = `states[${i}]`;
      const channel = e['channel'];
      if (typeof channel !== 'string') throw badRequest(`${at}.channel: expected a string`);
      const name = parseStateName(channel, device.product, `${at}.channel`);
      const { value, error } = e;
      if (value !== undefined && error !== undefined) throw badRequest(`${at}: value and error are mutually exclusive`);
      if (value === undefined && error === undefined) throw badRequest(`${at}: value or error is required`);
      const tsMs = writeTimestamp(e, at, request.nowMs);
      if (error !== undefined) {
        if (name.side !== 'reported') throw badRequest(`${at}.error: allowed only on a .reported channel`);
        checkStateError(error, `${at}.error`);
        return { device: device.uid, name: name.name, tsMs, value: undefined, error: error as number };
      }
      checkStateValue(device.product, name.key, name.sub, value, `${at}.value`, context.limits);
      const checked = value as boolean | number | string;
      return { device: device.uid, name: name.name, tsMs, value: checked, error: undefined };
    });
    context.storage.states.write(points);
    context.counters.recordsWritten('states', points.length);
    const desired = points.filter((p) => p.name.endsWith('.desired'));
    if (desired.length > 0) {
      const states = desired.map((point) => recordOf('channel', device, { point, aggregated: 'last' }));
      context.notifier.notify(device, { type: Hub.notifyStates, entity: device.uid, states });
    }
    const reported = points.filter((p) => !p.name.endsWith('.desired'));
    if (reported.length > 0) {
      context.notifier.observe(device, () => ({
        type: Hub.notifyStates,
        entity: device.uid,
        states: reported.map((point) => recordOf('channel', device, { point, aggregated: 'last' })),
      }));
    }
    return {};
  });
  addReadRoutes(router, context, statesKind, '/api/v1/states');
}
