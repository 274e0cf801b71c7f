/**
 * The live terminal view of `npm start`: a fixed frame redrawn in place (the
 * alternate screen, cursor home, each line cleared to its end), sized to the
 * terminal (80x24 when it does not say). Per channel: the last sampled value,
 * the last desired value and the reported value side by side, errors as errno
 * names (`-110 ETIMEDOUT`); above them the service, hub and outbox state; below
 * them the last output writes and the last warning. A channel list longer than
 * the frame is shown a page at a time, turning every few frames. Not a TTY
 * (CI logs, pipes): one compact status line per refresh.
 */
import type { AgentCounters } from '../../src/agent/counters.js';
import type { Sample, Value } from '../../src/agent/driver.js';
import { errnoName } from '../../src/errno.js';
import type { OutputWrite } from '../pins/sim-pins.js';

/** The part of a terminal stream the view uses (process.stdout, or a test's virtual terminal). */
export interface Screen {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

export interface ViewStatus {
  online: boolean;
  hub: string;
  counters: Readonly<AgentCounters>;
}

interface Row {
  sampled: string;
  desired: string;
  reported: string;
  reports: number;
}

/** `-110 ETIMEDOUT` */
export function errnoText(errno: number): string {
  return `${errno} ${errnoName(errno)}`;
}

/** A sample as a short cell: a number with at most 3 decimals, a location as lat,lon, an error by name. */
export function sampleText(sample: Sample): string {
  if (!sample.ok) return errnoText(sample.errno);
  const v = sample.value;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(3);
  if (typeof v !== 'object') return String(v);
  // A location fits its column as "lat,lon" (5 decimals: about a metre).
  return v.lat === undefined || v.lon === undefined ? 'no position' : `${v.lat.toFixed(5)},${v.lon.toFixed(5)}`;
}

/**
 * A header line folded at spaces to `width` (a word longer than the width is split), so that a narrow
 * terminal still shows the whole URL and token instead of cutting them off.
 */
export function fold(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const out: string[] = [];
  let current = '';
  for (const word of line.split(/ +/)) {
    const joined = current === '' ? word : `${current} ${word}`;
    if (joined.length <= width) {
      current = joined;
      continue;
    }
    if (current !== '') out.push(current);
    current = word;
    while (current.length > width) {
      out.push(current.slice(0, width));
      current = current.slice(width);
    }
  }
  if (current !== '' || out.length === 0) out.push(current);
  return out;
}

function cell(text: string, width: number): string {
  return text.length > width - 1 ? text.slice(0, width - 2) + '~ ' : text.padEnd(width);
}

/** Frames a page of the channel list stays up before the next page. */
const FRAMES_PER_PAGE = 4;
const columns = { key: 14, sampled: 22, desired: 12, reported: 22 };

export class LiveView {
  private readonly rows = new Map<string, Row>();
  private readonly writes: string[] = [];
  private lastWarning = '';
  private frames = 0;
  private opened = false;

  constructor(
    private readonly out: Screen,
    private readonly header: readonly string[],
  ) {}

  private row(key: string): Row {
    let row = this.rows.get(key);
    if (row === undefined) {
      row = { sampled: '', desired: '', reported: '', reports: 0 };
      this.rows.set(key, row);
    }
    return row;
  }

  sampled = (key: string, sample: Sample): void => {
    this.row(key).sampled = sampleText(sample);
  };

  reported = (key: string, sample: Sample): void => {
    const row = this.row(key);
    row.reported = sampleText(sample);
    row.reports++;
  };

  desired = (key: string, value: Value): void => {
    this.row(key).desired = String(value);
  };

  written = (write: OutputWrite): void => {
    this.writes.push(`pin ${write.pin} <- ${String(write.value)}`);
    if (this.writes.length > 3) this.writes.shift();
  };

  warned = (line: string): void => {
    this.lastWarning = line;
  };

  /** The lines of one frame, each at most `width` characters, at most `height` of them. */
  frame(status: ViewStatus, width: number, height: number): string[] {
    const c = status.counters;
    const top = [
      ...this.header.flatMap((line) => fold(line, width)),
      `service ${status.online ? 'online' : 'OFFLINE'}  hub ${status.hub}  sent ${c.sent} records in ${c.requests} requests`,
      `outbox ${c.queued} records / ${c.queuedBytes} bytes  dropped ${c.dropped}  held ${c.held}  ` +
        `desired ${c.desiredApplied} applied`,
      cell('channel', columns.key) +
        cell('sampled', columns.sampled) +
        cell('desired', columns.desired) +
        cell('reported', columns.reported) +
        'reports',
    ];
    const bottom = [
      `outputs: ${this.writes.length === 0 ? '(none written yet)' : this.writes.join(', ')}`,
      `last warning: ${this.lastWarning === '' ? '(none)' : this.lastWarning.replace(/^\S+ /, '')}`,
      'q quits',
    ];
    const keys = [...this.rows.keys()].sort((a, b) => a.localeCompare(b));
    const room = Math.max(1, height - top.length - bottom.length - 1);
    const pages = Math.max(1, Math.ceil(keys.length / room));
    const page = Math.floor(this.frames / FRAMES_PER_PAGE) % pages;
    const shown = keys.slice(page * room, page * room + room).map((key) => {
      const r = this.rows.get(key)!;
      return (
        cell(key, columns.key) +
        cell(r.sampled, columns.sampled) +
        cell(r.desired, columns.desired) +
        cell(r.reported, columns.reported) +
        String(r.reports)
      );
    });
    const filler = Array.from({ length: room - shown.length }, () => '');
    const pager =
      pages === 1
        ? `${keys.length} channels`
        : `channels ${page * room + 1}-${page * room + shown.length} of ${keys.length} (page ${page + 1}/${pages})`;
    return [...top, ...shown, ...filler, pager, ...bottom].slice(0, height).map((l) => l.slice(0, width));
  }

  /** Draws one frame: in place on a terminal, as one status line otherwise. */
  render(status: ViewStatus): void {
    const width = this.out.columns ?? 80;
    const height = this.out.rows ?? 24;
    if (this.out.isTTY !== true) {
      // Not a terminal: the header whole once, then the two status lines as one line per refresh.
      const [service, outbox] = this.frame(status, Infinity, this.header.length + 2).slice(this.header.length);
      if (this.frames++ === 0) this.out.write(this.header.map((l) => `${l}\n`).join(''));
      this.out.write(`${service!}  ${outbox!}\n`);
      return;
    }
    const lines = this.frame(status, width, height);
    this.frames++;
    // The alternate screen (the shell's scrollback stays as it was), cursor hidden, home, then each line
    // overwritten and cleared to its end, and everything below the frame cleared: nothing scrolls.
    const open = this.opened ? '' : '\x1b[?1049h\x1b[?25l';
    this.opened = true;
    this.out.write(`${open}\x1b[H${lines.map((l) => `${l}\x1b[K`).join('\r\n')}\x1b[J`);
  }

  /** Leaves the alternate screen and shows the cursor again. */
  close(): void {
    if (this.opened) this.out.write('\x1b[?25h\x1b[?1049l');
    this.opened = false;
  }
}
