/**
 * Simulated input signals: a value as a function of time (ms since the signal
 * started). Digital inputs toggle on a schedule; analog inputs follow a
 * constant, ramp, sine, noise or recorded CSV waveform. Values are in the
 * channel's engineering units (what the service shows); the simulated device
 * converts them to raw counts (host-sim/device).
 *
 * Recorded waveforms are lines `timeMs,value` (ascending times); `#` comments
 * and a header line of non-numbers are skipped; a malformed line is an error
 * naming its line number.
 */

export type SignalSpec =
  | { kind: 'constant'; value: number | boolean }
  /** Digital: flips every `periodMs` (or follows `pattern`, a list of ms to hold each level). */
  | { kind: 'toggle'; periodMs?: number; pattern?: number[]; initial?: boolean }
  /** Sawtooth from `from` to `to` over `periodMs`, then again. */
  | { kind: 'ramp'; from: number; to: number; periodMs: number }
  | { kind: 'sine'; mean: number; amplitude: number; periodMs: number }
  /** Uniform noise in mean ± amplitude; `seed` makes it repeatable. */
  | { kind: 'noise'; mean: number; amplitude: number; seed?: number }
  /** Recorded samples `timeMs,value` (one per line, `#` comments); step-held between rows, looping. */
  | { kind: 'csv'; file?: string; data?: string; loop?: boolean };

export type Signal = (elapsedMs: number) => number | boolean;

/** A small deterministic generator (mulberry32), so scenarios replay exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function toggle(periodMs: number, pattern: number[] | undefined, initial: boolean): Signal {
  if (pattern === undefined || pattern.length === 0) {
    return (t) => (Math.floor(t / periodMs) % 2 === 0 ? initial : !initial);
  }
  const total = pattern.reduce((a, b) => a + b, 0);
  return (t) => {
    let at = t % total;
    for (let i = 0; i < pattern.length; i++) {
      at -= pattern[i]!;
      if (at < 0) return i % 2 === 0 ? initial : !initial;
    }
    return initial;
  };
}

function recorded(samples: readonly CsvSample[], loop: boolean): Signal {
  const last = samples[samples.length - 1]!;
  const span = last.timeMs + (samples.length > 1 ? last.timeMs - samples[samples.length - 2]!.timeMs : 1000);
  return (t) => {
    const at = loop ? t % span : Math.min(t, last.timeMs);
    let value = samples[0]!.value;
    for (const s of samples) {
      if (s.timeMs > at) break;
      value = s.value;
    }
    return value;
  };
}

/** Builds a signal; `readFile` loads CSV files (relative to the scenario). Throws Error with the reason. */
export function createSignal(spec: SignalSpec, readFile: (path: string) => string): Signal {
  switch (spec.kind) {
    case 'constant':
      return () => spec.value;
    case 'toggle':
      return toggle(spec.periodMs ?? 5000, spec.pattern, spec.initial ?? false);
    case 'ramp':
      return (t) => spec.from + ((spec.to - spec.from) * (t % spec.periodMs)) / spec.periodMs;
    case 'sine':
      return (t) => spec.mean + spec.amplitude * Math.sin((2 * Math.PI * t) / spec.periodMs);
    case 'noise': {
      const random = seededRandom(spec.seed ?? 1);
      return () => spec.mean + spec.amplitude * (2 * random() - 1);
    }
    case 'csv': {
      const text = spec.data ?? (spec.file === undefined ? undefined : readFile(spec.file));
      if (text === undefined) throw new Error('csv signal needs "file" or "data"');
      const samples = parseCsvSamples(text);
      if (samples.length === 0) throw new Error('csv signal has no samples');
      return recorded(samples, spec.loop ?? true);
    }
  }
}

export interface CsvSample {
  timeMs: number;
  value: number;
}

export function parseCsvSamples(text: string): CsvSample[] {
  const samples: CsvSample[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [a, b] = line.split(/[,;\t]/).map((s) => s.trim());
    const timeMs = Number(a);
    const value = Number(b);
    if (i === 0 && (Number.isNaN(timeMs) || Number.isNaN(value))) continue; // header
    if (!Number.isFinite(timeMs) || !Number.isFinite(value) || b === undefined) {
      throw new Error(`csv line ${i + 1}: expected "timeMs,value", got "${line}"`);
    }
    const previous = samples[samples.length - 1];
    if (previous !== undefined && timeMs < previous.timeMs) {
      throw new Error(`csv line ${i + 1}: time goes backwards`);
    }
    samples.push({ timeMs, value });
  }
  return samples;
}
