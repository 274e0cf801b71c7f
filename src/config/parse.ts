/**
 * Validates a `channels/list` response (spec 4.5) into the typed model. A bad
 * channel is rejected alone, with its reason; the others keep working. Unknown
 * fields are ignored and missing optional fields take their defaults (decisions 1).
 */
import { AgentError, isAgentError } from '../errors.js';
import {
  Aggregates,
  BusTypes,
  BusWire as B,
  CanProtocols,
  ChannelTypes,
  ChannelWire as C,
  CustomTypes,
  DataOrders,
  DataTypes,
  LastAggregates,
  Parities,
  ProtocolWire as P,
  RegisterTypes,
  StopBitsValues,
  TransmitEventTypes,
  TransmitEventWire as T,
} from '../wire.js';
import {
  asArray,
  asObject,
  isObject,
  optBoolean,
  optEnum,
  optNumber,
  optString,
  present,
  reqEnum,
  reqNumber,
  reqString,
  type WireObject,
} from './fields.js';
import {
  ChannelDefaults,
  DataTypeBits,
  type Bus,
  type CanProtocol,
  type Channel,
  type ChannelConfig,
  type DataLayout,
  type RejectedChannel,
  type TransmitEvent,
} from './model.js';

const u8 = { integer: true, min: 0, max: 255 };

export function parseTransmitEvent(value: unknown, index: number): TransmitEvent {
  const o = asObject(value, `${C.transmitEvents}[${index}]`);
  const type = reqEnum(o, T.type, TransmitEventTypes);
  switch (type) {
    case 'change':
      return { type };
    case 'delta':
      return { type, minimalChange: reqNumber(o, T.minimalChange, { min: 0, exclusiveMin: true }) };
    case 'interval':
      return { type, intervalMs: reqNumber(o, T.interval, { min: 0, exclusiveMin: true }) };
    case 'threshold':
      return {
        type,
        threshold: reqNumber(o, T.threshold),
        hysteresis: optNumber(o, T.hysteresis, { min: 0 }) ?? 0,
      };
  }
}

export function parseBus(value: unknown): Bus {
  const o = asObject(value, 'bus');
  const common = { uid: reqString(o, B.uid), name: optString(o, B.name) ?? '', key: reqString(o, B.key) };
  const type = reqEnum(o, B.type, BusTypes);
  if (type === 'can') {
    return {
      ...common,
      type,
      bitrate: optNumber(o, B.bitrate, { min: 0, exclusiveMin: true }) ?? ChannelDefaults.canBitrate,
    };
  }
  const dataBits = optNumber(o, B.dataBits, { integer: true, min: 5, max: 8 }) ?? ChannelDefaults.modbusDataBits;
  return {
    ...common,
    type,
    baudRate: optNumber(o, B.baudRate, { integer: true, min: 1 }) ?? ChannelDefaults.modbusBaudRate,
    dataBits: dataBits as 5 | 6 | 7 | 8,
    parity: optEnum(o, B.parity, Parities) ?? ChannelDefaults.modbusParity,
    stopBits: optEnum(o, B.stopBits, StopBitsValues) ?? ChannelDefaults.modbusStopBits,
  };
}

function parseLayout(o: WireObject, defaultOrder: DataLayout['dataOrder']): DataLayout {
  const dataType = reqEnum(o, C.dataType, DataTypes);
  const width = DataTypeBits[dataType];
  const dataSizeBits = optNumber(o, C.dataSize, { integer: true, min: 1, max: 64 }) ?? width;
  if (dataSizeBits > width) {
    throw new AgentError('wire.invalid', `${C.dataSize}: ${dataSizeBits} bits exceed ${dataType} (${width} bits)`);
  }
  if ((dataType.startsWith('float') || dataType === 'siemensTotalType') && dataSizeBits !== width) {
    throw new AgentError('wire.invalid', `${C.dataSize}: ${dataType} needs exactly ${width} bits`);
  }
  return {
    dataType,
    dataOrder: optEnum(o, C.dataOrder, DataOrders) ?? defaultOrder,
    dataOffsetBits: optNumber(o, C.dataOffset, { integer: true, min: 0, max: 65535 * 16 }) ?? 0,
    dataSizeBits,
  };
}

function parseProtocol(o: WireObject): CanProtocol | undefined {
  const raw = o[C.protocol];
  if (raw === undefined || raw === null) return undefined;
  const p = asObject(raw, C.protocol);
  const type = reqEnum(p, P.type, CanProtocols);
  if (type === 'cattron') return { type };
  return present({
    type,
    pgn: reqNumber(p, P.pgn, { integer: true, min: 0, max: 0x3ffff }),
    priority: optNumber(p, P.priority, { integer: true, min: 0, max: 7 }),
    sourceAddress: optNumber(p, P.sourceAddress, u8),
  });
}

/** One channel; throws AgentError `wire.invalid` with the reason. */
export function parseChannel(value: unknown, buses: readonly Bus[]): Channel {
  const o = asObject(value, 'channel');
  const type = reqEnum(o, C.type, ChannelTypes);
  const events = o[C.transmitEvents];
  const common = present({
    uid: reqString(o, C.uid),
    key: reqString(o, C.key),
    name: optString(o, C.name) ?? '',
    group: optString(o, C.group),
    aggregated: optEnum(o, C.aggregated, Aggregates),
    aggregatedLast: optEnum(o, C.aggregatedLast, LastAggregates),
    order: optNumber(o, C.order),
    unit: optString(o, C.unit),
    scaleGain: optNumber(o, C.scaleGain) ?? 1,
    scaleOffset: optNumber(o, C.scaleOffset) ?? 0,
    scanIntervalMs:
      optNumber(o, C.scanInterval, { min: ChannelDefaults.minScanIntervalMs }) ?? ChannelDefaults.scanIntervalMs,
    visible: optBoolean(o, C.visible) ?? true,
    transmitEvents:
      events === undefined || events === null ? [] : asArray(events, C.transmitEvents).map(parseTransmitEvent),
  });
  if (common.key === '') throw new AgentError('wire.invalid', `${C.key}: must not be empty`);
  if (common.scaleGain === 0) throw new AgentError('wire.invalid', `${C.scaleGain}: must not be 0`);
  const readOnly = optBoolean(o, C.readOnly);
  switch (type) {
    case 'analogInput':
    case 'analogOutput':
    case 'digitalInput':
    case 'digitalOutput':
      return { ...common, type, pin: reqNumber(o, C.pin, { integer: true, min: 0 }) };
    case 'custom':
      return { ...common, type, customType: reqEnum(o, C.customType, CustomTypes), readOnly: readOnly ?? false };
    case 'location':
      return {
        ...common,
        type,
        timeoutMs: optNumber(o, C.timeout, { min: 0, exclusiveMin: true }) ?? ChannelDefaults.locationTimeoutMs,
      };
    case 'modbus': {
      const bus = findBus(buses, reqString(o, C.bus), 'modbus');
      const registerType = reqEnum(o, C.registerType, RegisterTypes);
      return {
        ...common,
        ...parseLayout(o, 'bigEndian'),
        type,
        bus,
        deviceAddress: reqNumber(o, C.deviceAddress, { integer: true, min: 1, max: 247 }),
        registerType,
        registerAddress: reqNumber(o, C.registerAddress, { integer: true, min: 0, max: 65535 }),
        readOnly: readOnly ?? (registerType === 'discreteInput' || registerType === 'inputRegister'),
      };
    }
    case 'can': {
      const bus = findBus(buses, reqString(o, C.bus), 'can');
      const protocol = parseProtocol(o);
      const canId = optNumber(o, C.canId, { integer: true, min: 0, max: 0x1fffffff });
      const protocolFields = isObject(o[C.protocol]) ? (o[C.protocol] as WireObject) : {};
      const dpa = optNumber(o, C.databaseParameterAddress) ?? optNumber(protocolFields, C.databaseParameterAddress);
      if (canId === undefined && protocol?.type !== 'j1939' && protocol?.type !== 'cattron') {
        throw new AgentError('wire.invalid', `${C.canId}: required unless protocol is j1939 or cattron`);
      }
      return present({
        ...common,
        ...parseLayout(o, 'littleEndian'),
        type,
        bus,
        canId,
        protocol,
        databaseParameterAddress: dpa,
        readOnly: readOnly ?? optBoolean(protocolFields, C.readOnly) ?? true,
      });
    }
  }
}

function findBus(buses: readonly Bus[], key: string, type: Bus['type']): string {
  const bus = buses.find((b) => b.key === key);
  if (bus === undefined) throw new AgentError('wire.invalid', `${C.bus}: no bus with key "${key}"`);
  if (bus.type !== type) throw new AgentError('wire.invalid', `${C.bus}: bus "${key}" is ${bus.type}, not ${type}`);
  return key;
}

function idOf(value: unknown, field: string): string | undefined {
  return isObject(value) && typeof value[field] === 'string' ? (value[field] as string) : undefined;
}

/**
 * The whole `channels/list` body. Throws `wire.invalid` only when the body itself
 * is not `{ buses?, channels }`; bad buses and channels are rejected one by one.
 */
export function parseChannelList(body: unknown): ChannelConfig {
  const o = asObject(body, 'channels/list response');
  const rejected: RejectedChannel[] = [];
  const buses: Bus[] = [];
  for (const raw of o['buses'] === undefined ? [] : asArray(o['buses'], 'buses')) {
    try {
      buses.push(parseBus(raw));
    } catch (e) {
      if (!isAgentError(e)) throw e;
      rejected.push({ key: idOf(raw, B.key), uid: idOf(raw, B.uid), reason: `bus: ${e.message}` });
    }
  }
  const channels: Channel[] = [];
  const seen = new Set<string>();
  for (const raw of asArray(o['channels'], 'channels')) {
    try {
      const channel = parseChannel(raw, buses);
      if (seen.has(channel.key)) throw new AgentError('wire.invalid', `${C.key}: duplicate "${channel.key}"`);
      seen.add(channel.key);
      channels.push(channel);
    } catch (e) {
      if (!isAgentError(e)) throw e;
      rejected.push({ key: idOf(raw, C.key), uid: idOf(raw, C.uid), reason: e.message });
    }
  }
  return { buses, channels, rejected };
}
