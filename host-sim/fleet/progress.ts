/**
 * The live line of a fleet run (once a second on a terminal, every ten seconds
 * otherwise): devices running and online, hub connections, records and
 * requests per second in the last second, outbox depth, errors by kind.
 */
import type { Fleet } from './fleet.js';

export function progressLine(fleet: Fleet, second: number): string {
  let running = 0;
  let online = 0;
  let queued = 0;
  for (const device of fleet.devices) {
    if (!device.running) continue;
    running++;
    if (device.hubState === 'connected') online++;
    queued += device.counters().queued;
  }
  const { link } = fleet;
  const errors = [...link.errors]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([kind, n]) => `${kind}: ${n}`)
    .join(', ');
  return (
    `t=${second}s devices ${running}/${fleet.devices.length} online ${online} hub sockets ${link.openSockets}` +
    ` records/s ${link.records.at(second - 1)} requests/s ${link.requests.at(second - 1)} outbox ${queued}` +
    (link.isDown ? ' [OUTAGE]' : '') +
    (errors === '' ? '' : ` errors {${errors}}`)
  );
}
