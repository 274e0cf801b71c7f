/**
 * `npm run bench:buses`: the costs of the bus path, each against a peer measured
 * in the same run:
 * - CRC-16/MODBUS over a 256-byte frame: ours vs modbus-serial's `crc16`;
 * - a whole FC 3 response (10 registers) checked (CRC, unit, function, byte
 *   count) and one float32 decoded: ours vs modbus-serial's crc16 + Buffer reads;
 * - J1939 identifier decoding: ours vs @canboat/canboatjs `parseCanId`;
 * - a J1939 channel decode (uint16 little endian at bit 24) vs Buffer.readUInt16LE.
 * Prints ratios (peer time / our time: above 1 means we are faster) and, as its
 * last line, one JSON object of the figures.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { decodeJ1939Id, type J1939Id } from '../src/can/j1939-id.js';
import { decodeData } from '../src/codec/field.js';
import { appendCrc, checkResponse, crc16, encodeRequest } from '../src/modbus/rtu.js';

const require = createRequire(import.meta.url);
const theirCrc = require('modbus-serial/utils/crc16.js') as (b: Buffer) => number;
const { parseCanId } = require('@canboat/canboatjs/dist/canId.js') as { parseCanId(id: number): { pgn: number } };

/** Nanoseconds per call of `fn`, best of 5 runs of `n` calls. */
function nsPerOp(n: number, fn: (i: number) => number): number {
  let best = Number.POSITIVE_INFINITY;
  let sink = 0;
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) sink += fn(i);
    best = Math.min(best, ((performance.now() - t0) * 1e6) / n);
  }
  if (sink === 0.5) console.log('');
  return best;
}

const frame = new Uint8Array(256);
for (let i = 0; i < frame.length; i++) frame[i] = (i * 37) & 0xff;
const frameBuf = Buffer.from(frame);

const request = new Uint8Array(8);
encodeRequest({ unit: 1, functionCode: 3, address: 0, count: 10 }, request);
const response = new Uint8Array(25);
response.set([1, 3, 20, 0x41, 0x48, 0, 0]);
appendCrc(response, 23);
const responseBuf = Buffer.from(response);
const layout = { dataType: 'float32', dataOrder: 'bigEndian', dataOffsetBits: 0, dataSizeBits: 32 } as const;

const ids = Uint32Array.from({ length: 1024 }, (_, i) => (0x0cf00400 + i * 0x10101) & 0x1fffffff);
const idOut: J1939Id = { priority: 0, pgn: 0, sourceAddress: 0, destinationAddress: 0, pdu1: false };
const payload = Uint8Array.from([0xf0, 0x7d, 0xa0, 0xc4, 0x1a, 0xff, 0xff, 0xff]);
const payloadBuf = Buffer.from(payload);
const rpmLayout = { dataType: 'uint16', dataOrder: 'littleEndian', dataOffsetBits: 24, dataSizeBits: 16 } as const;

const figures = {
  crcOursNs: nsPerOp(200_000, () => crc16(frame)),
  crcModbusSerialNs: nsPerOp(200_000, () => theirCrc(frameBuf)),
  responseOursNs: nsPerOp(500_000, () => {
    if (checkResponse(request, response, 25) !== 20) return 0;
    return decodeData(response.subarray(3, 7), layout) as number;
  }),
  responsePeerNs: nsPerOp(500_000, () => {
    const crc = theirCrc(responseBuf.subarray(0, 23));
    if (crc !== responseBuf.readUInt16LE(23) || responseBuf[0] !== 1 || responseBuf[1] !== 3 || responseBuf[2] !== 20)
      return 0;
    return responseBuf.readFloatBE(3);
  }),
  j1939IdOursNs: nsPerOp(2_000_000, (i) => decodeJ1939Id(ids[i & 1023] ?? 0, idOut).pgn),
  j1939IdCanboatNs: nsPerOp(2_000_000, (i) => parseCanId(ids[i & 1023] ?? 0).pgn),
  j1939FieldOursNs: nsPerOp(2_000_000, () => decodeData(payload, rpmLayout) as number),
  j1939FieldBufferNs: nsPerOp(2_000_000, () => payloadBuf.readUInt16LE(3)),
};
const ratio = (peer: number, ours: number): number => Math.round((peer / ours) * 100) / 100;
const ratios = {
  crc: ratio(figures.crcModbusSerialNs, figures.crcOursNs),
  response: ratio(figures.responsePeerNs, figures.responseOursNs),
  j1939Id: ratio(figures.j1939IdCanboatNs, figures.j1939IdOursNs),
  j1939Field: ratio(figures.j1939FieldBufferNs, figures.j1939FieldOursNs),
};
for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(20)} ${v.toFixed(1)} ns/op`);
for (const [k, v] of Object.entries(ratios)) console.log(`ratio ${k.padEnd(14)} ${v} (peer time / ours)`);
const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 10) / 10]));
console.log(JSON.stringify({ ...rounded, ratios }));
