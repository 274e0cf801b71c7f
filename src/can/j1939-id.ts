/**
 * J1939 29-bit identifiers (SAE J1939-21, section 5.2): priority (3 bits),
 * extended data page (1), data page (1), PDU format PF (8), PDU specific PS (8),
 * source address (8).
 *
 * The PGN rule: PF < 240 is PDU1, addressed: PS is the destination address and
 * is not part of the PGN (PGN = EDP, DP, PF, 0x00). PF >= 240 is PDU2,
 * broadcast: PS is the group extension, part of the PGN, and the destination is
 * global (255).
 * Worked examples: 0x0CF00400 is priority 3, PGN 61444 (EEC1), SA 0;
 * 0x18FEF100 is PGN 65265 (CCVS1); 0x18EA00F9 is PGN 59904 (Request) to 0x00 from 0xF9.
 */

/** Destination of a broadcast (PDU2) message. */
export const GLOBAL_ADDRESS = 0xff;

/** A decoded identifier; fields are reused by `decodeJ1939Id` when given `out`. */
export interface J1939Id {
  priority: number;
  /** 18-bit parameter group number (EDP, DP, PF, PS-or-0). */
  pgn: number;
  sourceAddress: number;
  /** PS for PDU1; 255 for PDU2. */
  destinationAddress: number;
  /** True for PF < 240 (destination-specific). */
  pdu1: boolean;
}

/** Decodes a 29-bit identifier (into `out` when given, to avoid allocating). */
export function decodeJ1939Id(id: number, out?: J1939Id): J1939Id {
  const r = out ?? { priority: 0, pgn: 0, sourceAddress: 0, destinationAddress: 0, pdu1: false };
  const pf = (id >>> 16) & 0xff;
  const ps = (id >>> 8) & 0xff;
  const page = (id >>> 24) & 0x3; // EDP and DP
  r.priority = (id >>> 26) & 0x7;
  r.sourceAddress = id & 0xff;
  r.pdu1 = pf < 240;
  r.pgn = page * 0x10000 + pf * 0x100 + (r.pdu1 ? 0 : ps);
  r.destinationAddress = r.pdu1 ? ps : GLOBAL_ADDRESS;
  return r;
}

/** The PDU format byte of a PGN. */
export function pduFormat(pgn: number): number {
  return (pgn >>> 8) & 0xff;
}

/**
 * Encodes an identifier. For a PDU1 PGN the destination goes into PS; for a
 * PDU2 PGN the destination is ignored (the PGN's low byte is PS).
 */
export function encodeJ1939Id(
  priority: number,
  pgn: number,
  sourceAddress: number,
  destinationAddress = GLOBAL_ADDRESS,
): number {
  const pdu1 = pduFormat(pgn) < 240;
  const ps = pdu1 ? destinationAddress & 0xff : pgn & 0xff;
  const upper = (pgn >>> 8) & 0x3ff; // EDP, DP, PF
  return ((priority & 0x7) * 0x4000000 + upper * 0x10000 + ps * 0x100 + (sourceAddress & 0xff)) >>> 0;
}

/** Well-known PGNs used by the reader and the simulator. */
export const Pgn = {
  /** Transport protocol, connection management (TP.CM). */
  tpCm: 0xec00,
  /** Transport protocol, data transfer (TP.DT). */
  tpDt: 0xeb00,
  /** Request. */
  request: 0xea00,
  /** Electronic engine controller 1 (engine speed: SPN 190, bytes 4-5). */
  eec1: 61444,
  /** Engine temperature 1 (coolant temperature: SPN 110, byte 1). */
  et1: 65262,
  /** Cruise control / vehicle speed 1. */
  ccvs1: 65265,
} as const;
