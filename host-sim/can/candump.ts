/**
 * candump logs (can-utils): the log-file format `candump -l` writes,
 *   (1436509052.249713) can0 0CF00400#F07DA0C41AFFFFFF
 * and the default screen format,
 *   can0  0CF00400   [8]  F0 7D A0 C4 1A FF FF FF
 * An identifier of 3 hex digits is a standard (11-bit) frame; 8 digits is an
 * extended (29-bit) frame. Remote-request and CAN FD lines (`R`, `##`) are
 * skipped and counted. Screen-format lines have no time; they are spaced 1 ms.
 */
import type { CanFrame } from '../../src/ports.js';

export interface LoggedFrame {
  /** Seconds, as logged (0-based for screen-format lines). */
  timeS: number;
  interface: string;
  frame: CanFrame;
}

export interface CandumpLog {
  frames: LoggedFrame[];
  skipped: number;
}

const logLine = /^\((\d+(?:\.\d+)?)\)\s+(\S+)\s+([0-9A-Fa-f]{3}|[0-9A-Fa-f]{8})#([0-9A-Fa-f]*)$/;
const screenLine = /^(\S+)\s+([0-9A-Fa-f]{3}|[0-9A-Fa-f]{8})\s+\[(\d)\]\s+((?:[0-9A-Fa-f]{2}\s*)*)$/;

function hexBytes(hex: string): Uint8Array | undefined {
  const clean = hex.replace(/\s+/g, '');
  if (clean.length % 2 !== 0 || clean.length > 16) return undefined;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Parses a whole log; blank lines and `#` comments are ignored, malformed lines skipped and counted. */
export function parseCandump(text: string): CandumpLog {
  const frames: LoggedFrame[] = [];
  let skipped = 0;
  let screenTime = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const l = logLine.exec(line);
    const s = l === null ? screenLine.exec(line) : null;
    const idHex = l?.[3] ?? s?.[2];
    const data = l !== null ? hexBytes(l[4] ?? '') : s !== null ? hexBytes(s[4] ?? '') : undefined;
    if (idHex === undefined || data === undefined || (s !== null && Number(s[3]) !== data.length)) {
      skipped++;
      continue;
    }
    const timeS = l !== null ? Number(l[1]) : (screenTime += 0.001);
    frames.push({
      timeS,
      interface: (l?.[2] ?? s?.[1]) as string,
      frame: { id: parseInt(idHex, 16), extended: idHex.length === 8, data },
    });
  }
  return { frames, skipped };
}

/** One frame in log-file format (the inverse of parseCandump). */
export function formatCandump(timeS: number, iface: string, frame: CanFrame): string {
  const id = frame.id
    .toString(16)
    .toUpperCase()
    .padStart(frame.extended ? 8 : 3, '0');
  const data = Array.from(frame.data, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join('');
  return `(${timeS.toFixed(6)}) ${iface} ${id}#${data}`;
}
