/**
 * Recorded waveforms for simulated analog inputs: lines `timeMs,value`
 * (ascending times), `#` comments and a header line of non-numbers are
 * skipped; a malformed line is an error naming its line number.
 */

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
