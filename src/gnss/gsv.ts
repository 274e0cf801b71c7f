/**
 * GSV, satellites in view (up to four per sentence), as a further sentence
 * type for the typed-sentence reader: `sentenceReader(onSentence, [GSV])`
 * (src/gnss/nmea-decode.ts, host tools, tests and benches; the fix does not
 * use satellites in view).
 */
import { code3, lenientInt, type SentenceType } from './nmea-decode.js';
import type { NmeaFields } from './nmea-fields.js';
import type { GsvSentence } from './sentences.js';

/** Four fields per satellite after the header; one odd field left over is the signal id (NMEA 4.10+). */
function decodeGsv(r: NmeaFields, out: GsvSentence): void {
  r.expect(4);
  out.messageCount = r.int(1);
  out.messageNumber = r.int(2);
  out.satsInView = r.int(3);
  const rest = r.count - 4;
  const sats = rest >= 4 ? Math.min(4, rest >> 2) : 0;
  for (let k = 0; k < sats; k++) {
    const i = 4 + k * 4;
    out.prn[k] = r.int(i) || 0;
    out.elevationDeg[k] = r.num(i + 1);
    out.azimuthDeg[k] = r.num(i + 2);
    out.snrDb[k] = r.num(i + 3);
  }
  out.count = sats;
  out.signalId = rest % 4 === 1 ? lenientInt(r, r.count - 1) : NaN;
}

function newGsv(): GsvSentence {
  const g = { type: 'GSV', talker: 'GP', messageCount: NaN, messageNumber: NaN, satsInView: NaN, count: 0 } as const;
  const arrays = { prn: new Uint16Array(4), elevationDeg: new Float64Array(4), azimuthDeg: new Float64Array(4) };
  return { ...g, ...arrays, snrDb: new Float64Array(4), signalId: NaN };
}

export const GSV: SentenceType<GsvSentence> = {
  code: code3(0x47, 0x53, 0x56),
  create: newGsv,
  decode: decodeGsv,
};
