/**
 * Register maps of the simulated Modbus slave, read from a JSON file:
 *
 * ```json
 * { "devices": [ { "unit": 1,
 *     "coils":            [ { "address": 0, "value": true } ],
 *     "discreteInputs":   [ { "address": 0, "value": false } ],
 *     "holdingRegisters": [ { "address": 0, "type": "float32", "value": 12.5 },
 *                           { "address": 20, "value": 50 } ],
 *     "inputRegisters":   [ { "address": 10, "type": "int16", "order": "bigEndian", "value": -125 } ] } ],
 *   "faults": [ { "unit": 2, "kind": "noAnswer", "times": 3 } ] }
 * ```
 *
 * A register entry writes `value` as `type` (any channel dataType, default
 * uint16; 64-bit types take decimal strings too) in `order` (default bigEndian)
 * over as many registers as the type needs, from `address`. Only listed
 * addresses exist: anything else answers exception 02 (illegal data address).
 * `faults` are scripted faults (src: host-sim/modbus/faults.ts).
 */
import { encodeData } from '../../src/codec/field.js';
import type { DataType } from '../../src/config/model.js';
import { asArray, asObject, optBoolean, optEnum, reqNumber } from '../../src/reader.js';
import { AgentError } from '../../src/errors.js';
import { DataOrders, DataTypeBits, DataTypes } from '../../src/wire.js';
import { parseFault, type ModbusFault } from './faults.js';

/** One device's tables: address -> coil state, and address -> 16-bit register value. */
export interface DeviceTables {
  coils: Map<number, boolean>;
  discreteInputs: Map<number, boolean>;
  holdingRegisters: Map<number, number>;
  inputRegisters: Map<number, number>;
}

export interface RegisterMap {
  devices: Map<number, DeviceTables>;
  faults: ModbusFault[];
}

const address = { integer: true, min: 0, max: 65535 };

function bitTable(raw: unknown, field: string): Map<number, boolean> {
  const table = new Map<number, boolean>();
  for (const entry of raw === undefined ? [] : asArray(raw, field)) {
    const o = asObject(entry, field);
    table.set(reqNumber(o, 'address', address), optBoolean(o, 'value') ?? false);
  }
  return table;
}

function registerTable(raw: unknown, field: string): Map<number, number> {
  const table = new Map<number, number>();
  for (const entry of raw === undefined ? [] : asArray(raw, field)) {
    const o = asObject(entry, field);
    const at = reqNumber(o, 'address', address);
    const type: DataType = optEnum(o, 'type', DataTypes) ?? 'uint16';
    const bits = Math.max(16, DataTypeBits[type]);
    const window = new Uint8Array(bits / 8);
    const value = o['value'];
    if (typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'string') {
      throw new AgentError('wire.invalid', `${field}[${at}].value: expected a number, boolean or string`);
    }
    const layout = {
      dataType: type,
      dataOrder: optEnum(o, 'order', DataOrders) ?? 'bigEndian',
      dataOffsetBits: 0,
      dataSizeBits: bits,
    };
    const failure = encodeData(value, layout, window);
    if (failure !== undefined) throw new AgentError('wire.invalid', `${field}[${at}]: ${failure.reason}`);
    for (let i = 0; i < window.length / 2; i++) {
      table.set(at + i, ((window[2 * i] ?? 0) << 8) | (window[2 * i + 1] ?? 0));
    }
  }
  return table;
}

/** Validates a parsed register-map file; throws AgentError `wire.invalid` naming the field. */
export function parseRegisterMap(json: unknown): RegisterMap {
  const o = asObject(json, 'register map');
  const devices = new Map<number, DeviceTables>();
  for (const raw of asArray(o['devices'], 'devices')) {
    const d = asObject(raw, 'devices[]');
    devices.set(reqNumber(d, 'unit', { integer: true, min: 1, max: 247 }), {
      coils: bitTable(d['coils'], 'coils'),
      discreteInputs: bitTable(d['discreteInputs'], 'discreteInputs'),
      holdingRegisters: registerTable(d['holdingRegisters'], 'holdingRegisters'),
      inputRegisters: registerTable(d['inputRegisters'], 'inputRegisters'),
    });
  }
  const faults = o['faults'] === undefined ? [] : asArray(o['faults'], 'faults').map(parseFault);
  return { devices, faults };
}
