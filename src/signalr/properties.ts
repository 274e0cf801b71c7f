/**
 * The device's properties over the hub (decisions.md section 5), for a host that
 * keeps properties (the Node target plugs AgentOptions.properties; a board keeps
 * none, so no board links this module): the receiver of a `properties` Notify,
 * and `SetProperties`. Both read the property object with one rule: an object
 * whose values are booleans, numbers or strings.
 */
import type { DesiredStateSink } from '../agent/desired.js';
import type { Value } from '../agent/driver.js';
import { asObject, scalar } from '../reader.js';
import { Hub } from '../wire.js';
import type { HubInvoker } from './hub-invoker.js';

type PropertySink = Pick<DesiredStateSink, 'updateProperties'>;

/** Validates a property object (values boolean, number or string); throws `wire.invalid`. */
export function parseProperties(value: unknown, field: string): Record<string, Value> {
  const o = asObject(value, field);
  for (const name in o) scalar(o[name], `${field}.${name}`);
  return { ...(o as Record<string, Value>) };
}

/**
 * The receiver of a `properties` Notify's `values` (AgentLinkOptions.properties):
 * merges them into the sink (`updateProperties(values, false)`). Throws
 * `wire.invalid` for a bad property, and the link drops the Notify argument.
 */
export function notifiedProperties(sink: PropertySink): (values: unknown) => void {
  return (values) => sink.updateProperties(parseProperties(values, 'values'), false);
}

/**
 * Sets properties of this device (`SetProperties`): the Completion's result,
 * the whole property object, replaces the sink's set and is returned. Rejects
 * like `HubInvoker.invoke`, or with `wire.invalid` for a bad result.
 */
export async function setProperties(
  invoker: HubInvoker,
  sink: PropertySink,
  values: Readonly<Record<string, Value>>,
): Promise<Record<string, Value>> {
  const properties = parseProperties(await invoker.invoke(Hub.setProperties, [{ values }]), 'SetProperties');
  sink.updateProperties(properties, true);
  return properties;
}
