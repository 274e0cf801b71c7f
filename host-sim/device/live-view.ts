/**
 * The live terminal view of `npm start`: per channel the last sampled and last
 * reported value, and for the agent what was sent, the outbox depth and
 * whether the service is reachable. Redraws in place on a TTY; prints a
 * compact line per refresh otherwise (CI logs, pipes).
 */
import type { Agent } from '../../src/agent/agent.js';
import type { Sample } from '../../src/agent/driver.js';
import type { OutputWrite } from '../pins/sim-pins.js';

interface Row {
  sampled: string;
  reported: string;
  reports: number;
}

function show(sample: Sample): string {
  if (!sample.ok) return `error ${sample.errno}`;
  const v = sample.value;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(3);
  if (typeof v !== 'object') return String(v);
  // A location fits its column as "lat,lon" (5 decimals: about a metre).
  return v.lat === undefined || v.lon === undefined ? 'no position' : `${v.lat.toFixed(5)},${v.lon.toFixed(5)}`;
}

export class LiveView {
  private readonly rows = new Map<string, Row>();
  private readonly writes: string[] = [];
  private lastLines = 0;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly header: string,
  ) {}

  private row(key: string): Row {
    let row = this.rows.get(key);
    if (row === undefined) {
      row = { sampled: '', reported: '', reports: 0 };
      this.rows.set(key, row);
    }
    return row;
  }

  sampled = (key: string, sample: Sample): void => {
    this.row(key).sampled = show(sample);
  };

  reported = (key: string, sample: Sample): void => {
    const row = this.row(key);
    row.reported = show(sample);
    row.reports++;
  };

  written = (write: OutputWrite): void => {
    this.writes.push(`pin ${write.pin} <- ${String(write.value)}`);
    if (this.writes.length > 3) this.writes.shift();
  };

  /** Draws one frame. */
  render(agent: Agent, hub: string): void {
    const c = agent.counters;
    const lines = [
      this.header,
      `service ${agent.online ? 'online ' : 'OFFLINE'}  hub ${hub}  sent ${c.sent} records in ${c.requests} requests  ` +
        `outbox ${c.queued} records / ${c.queuedBytes} bytes  dropped ${c.dropped}  held ${c.held}`,
      `sampled ${c.sampled}  reported ${c.reported}  desired applied ${c.desiredApplied}`,
      '',
      `${'channel'.padEnd(14)}${'sampled'.padEnd(22)}${'reported'.padEnd(22)}reports`,
      ...[...this.rows.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, r]) => `${key.padEnd(14)}${r.sampled.padEnd(22)}${r.reported.padEnd(22)}${r.reports}`),
      '',
      `outputs: ${this.writes.length === 0 ? '(none written yet)' : this.writes.join(', ')}`,
      'Ctrl-C to stop',
    ];
    if (this.out.isTTY) {
      if (this.lastLines > 0) this.out.write(`\x1b[${this.lastLines}A\x1b[0J`);
      this.out.write(lines.join('\n') + '\n');
      this.lastLines = lines.length;
    } else {
      this.out.write(`${lines[1]!}\n`);
    }
  }
}
