/**
 * `npm run nmea -- [FILE]`: checks a receiver's NMEA output (a file, or standard
 * input when FILE is absent or `-`). Prints one JSON line per epoch, when the
 * fix's UTC time moves on and at the end:
 *   {"time":"<ISO 8601 UTC>","valid":true|false,"lat","lon","alt","pdop","hdop","vdop","sats"}
 * (fields present when known; position, altitude and DOPs only for a valid fix),
 * and a summary of sentences passed and failed on standard error. Lines starting
 * with `#` (gpsd log headers) are skipped. Exit status: 0; 1 when the input
 * holds no valid NMEA sentence (empty, binary, wrong baud rate) or FILE cannot be
 * read (naming it); 2 for a usage error (one line naming the problem and a hint).
 */
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { EpochTracker, type EpochView } from '../src/gnss/epoch-tracker.js';
import { dateDays } from '../src/gnss/nmea-decode.js';
import type { NmeaFields } from '../src/gnss/nmea-fields.js';
import { CountingNmeaParser } from '../src/gnss/nmea-parser.js';

const USAGE = `usage: npm run nmea -- [FILE|-]   (reads standard input without FILE)
Checks a GNSS receiver's NMEA output (a capture file, or a serial port piped in): one JSON line per epoch on
standard output, a summary of sentences passed and failed on standard error; exit 1 when it holds no valid
NMEA sentence (empty, binary, wrong baud rate), 2 for a bad option.
  --help  print this help`;
const HINT = '(npm run nmea -- --help shows the usage)';

/** FILE (or undefined for standard input), `--help`, or a one-line usage error. */
function parseCommandLine(argv: readonly string[]): { file: string | undefined; help: boolean } | string {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 1) return `one FILE at most, got ${positionals.length}`;
    return { file: positionals[0], help: values.help === true };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const option = /'(-[^' ]+)'/.exec(message)?.[1];
    return option !== undefined && message.startsWith('Unknown option') ? `unknown option ${option}` : message;
  }
}

/** ISO 8601 UTC of a tracker's epoch: date and time when the date is known, else the time of day. */
export function epochTime(dateDays: number, timeOfDayMs: number): string {
  const iso = new Date((Number.isNaN(dateDays) ? 0 : dateDays) * 86_400_000 + timeOfDayMs).toISOString();
  return Number.isNaN(dateDays) ? iso.slice(11) : iso;
}

const RMC = 0x524d43;
const HALF_DAY_MS = 43_200_000;

/**
 * The date of each epoch (the tracker follows the time of day only): the date
 * of the last RMC, moved over midnight with the time until the next RMC
 * brings it; a jump back of over 12 hours is the next day, so a receiver clock
 * stepped back a few seconds is not a new day.
 */
class EpochDate {
  days = NaN;
  #timeOfDayMs = NaN;

  /** The date of an epoch at `timeOfDayMs`, the epochs taken in order. */
  at(timeOfDayMs: number): number {
    if (timeOfDayMs < this.#timeOfDayMs - HALF_DAY_MS) this.days++;
    else if (timeOfDayMs > this.#timeOfDayMs + HALF_DAY_MS) this.days--;
    this.#timeOfDayMs = timeOfDayMs;
    return this.days;
  }

  /** Takes the date of a verified RMC line the tracker used (a malformed date is left alone). */
  read(f: NmeaFields, timeOfDayMs: number): void {
    const wasBad = f.bad;
    const days = dateDays(f, 9);
    f.bad = wasBad;
    if (days !== days) return;
    this.days = days;
    this.#timeOfDayMs = timeOfDayMs;
  }
}

/** The JSON line of the epoch the tracker holds, on date `days` (NaN unknown). */
export function epochLine(t: EpochView, days: number): string {
  const out: Record<string, string | number | boolean> = { time: epochTime(days, t.timeOfDayMs), valid: t.valid };
  const add = (key: string, value: number): void => {
    if (!Number.isNaN(value)) out[key] = value;
  };
  if (t.valid) {
    add('lat', t.lat);
    add('lon', t.lon);
    add('alt', t.alt);
    add('pdop', t.pdop);
    add('hdop', t.hdop);
    add('vdop', t.vdop);
  }
  add('sats', t.sats);
  return JSON.stringify(out);
}

async function main(argv: readonly string[]): Promise<number> {
  // `npm run nmea -- log | head` closes the pipe early: stop quietly.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  const args = parseCommandLine(argv);
  if (typeof args === 'string') {
    process.stderr.write(`nmea: ${args}\n${HINT}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const file = args.file;
  const input = file === undefined || file === '-' ? process.stdin : createReadStream(file);
  // A file is opened (or refused) before reading; standard input is read as it comes, empty or not.
  const opened = new Promise<void>((resolve, reject) => {
    input.once('error', reject);
    if (input === process.stdin) resolve();
    else input.once('open', () => resolve());
  });
  try {
    await opened;
    // A directory opens, then fails at the first read (EISDIR): refused here, by name.
    if (input !== process.stdin && statSync(file!).isDirectory()) throw new Error('a directory, not a capture file');
  } catch (e) {
    const why = (e as Error).message.replace(/, open '.*'$/, '');
    process.stderr.write(`nmea: cannot read ${file ?? 'standard input'}: ${why}\n`);
    return 1;
  }
  // A replayed file has no time of its own: the tracker reads monotonic time only (its fix timeout).
  const idle = { schedule: () => undefined, unschedule: () => undefined };
  const clock = {
    monotonicMs: () => 0,
    wallMs: () => 0,
    setTimer: () => ({}),
    clearTimer: () => undefined,
    timer: () => idle,
  };
  let epochs = 0;
  const date = new EpochDate();
  const write = (t: EpochView): void => {
    epochs++;
    process.stdout.write(epochLine(t, date.at(t.timeOfDayMs)) + '\n');
  };
  const tracker = new EpochTracker({ clock, onEpochEnd: write });
  const onLine = (f: NmeaFields): boolean => {
    const used = tracker.onLine(f);
    if (used && !f.bad && f.type === RMC) date.read(f, tracker.timeOfDayMs);
    return used;
  };
  const parser = new CountingNmeaParser({ onLine });
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.startsWith('#')) continue;
    parser.push(Buffer.from(line + '\n', 'latin1'));
  }
  if (!Number.isNaN(tracker.timeOfDayMs)) write(tracker);
  const c = parser.counters;
  process.stderr.write(
    `nmea: ${c.passed} sentences passed (${c.delivered} used, ${c.skipped} skipped, ${c.malformed} malformed), ` +
      `${c.failed} failed, ${c.noiseBytes} noise bytes, ${epochs} epochs\n`,
  );
  if (c.passed === 0) {
    const what = c.failed + c.noiseBytes === 0 ? 'is empty' : 'holds no valid NMEA sentence (binary? wrong baud rate?)';
    process.stderr.write(`nmea: ${file ?? 'standard input'} ${what}\n`);
    return 1;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`nmea: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
