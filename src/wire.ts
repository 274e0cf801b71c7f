/**
 * Every wire name the agent and the local service use, in one place
 * (decisions.md: "keeps every wire name in one module, so that a correction is
 * one edit"): the channel and bus records as tables of rules, the enumerations,
 * paths, hub names and constants.
 */
import { bool, check, int, list, nonEmpty, num, oneOf, opt, optStr, positive, str, union } from './reader.js';

/** The enumerations of the specification, as `as const` tables. */
/** `aggregatedLast` takes the first four of the `aggregated` functions. */
export const LastAggregates = ['derivative.1s', 'derivative.1m', 'derivative.1h', 'last'] as const;
export const Aggregates = [...LastAggregates, 'max', 'mean', 'min'] as const;
/** Width in bits of each data type (decisions 2: `dataSize` defaults to it). */
export const DataTypeBits = {
  bool: 1,
  int8: 8,
  uint8: 8,
  int16: 16,
  uint16: 16,
  int32: 32,
  uint32: 32,
  int64: 64,
  uint64: 64,
  float32: 32,
  float64: 64,
  siemensTotalType: 64,
} as const;
export const DataTypes = Object.keys(DataTypeBits) as (keyof typeof DataTypeBits)[];
export const DataOrders = ['littleEndian', 'bigEndian'] as const;
/** Modbus register types, each with its `readOnly` default (decisions 8: inputs are read-only). */
export const RegisterReadOnly = {
  discreteInput: true,
  coil: false,
  inputRegister: true,
  holdingRegister: false,
} as const;
export const RegisterTypes = Object.keys(RegisterReadOnly) as (keyof typeof RegisterReadOnly)[];
export const CustomTypes = ['boolean', 'decimal', 'number'] as const;
export const Parities = ['none', 'odd', 'even', 'mark', 'space'] as const;
export const StopBitsValues = ['none', 'one', 'two', 'onePointFive'] as const;

// The records of `channels/list` (spec 2.8, 2.9; decisions 1 and 8) as tables of
// rules (src/reader.ts): a key is the wire name, or the model's name with
// `[wireName, rule]` where the model adds a unit (`scanInterval` -> `scanIntervalMs`).
// Defaults where the specification is silent are the `opt` fallbacks here
// (docs/decisions.md section 8). The keys of a union are its `type`s.

/** Transmit events (decisions 1, 3). */
export const TransmitEventRecord = union(
  {
    change: {},
    delta: { minimalChange: positive },
    interval: { intervalMs: ['interval', positive] },
    threshold: { threshold: num(), hysteresis: opt(num(0), 0) },
  },
  {},
);

/** `protocol` of a CAN channel (spec 2.9). */
export const CanProtocolRecord = union(
  {
    cattron: {},
    j1939: { pgn: int(0, 0x3ffff), priority: opt(int(0, 7)), sourceAddress: opt(int(0, 255)) },
  },
  {},
);

/**
 * A channel's uid and its fields for people (spec 2.9), which the dashboard shows. The agent checks them (a channel
 * with a bad one is rejected, as for any field) and keeps none: a board holds only what it samples with.
 */
export const ChannelDisplay = {
  uid: str,
  name: opt(str, ''),
  group: optStr,
  aggregated: opt(oneOf(Aggregates)),
  aggregatedLast: opt(oneOf(LastAggregates)),
  order: opt(num()),
  unit: optStr,
  visible: opt(bool, true),
} as const;

/** Fields of every channel the agent keeps. */
export const ChannelCommon = {
  key: nonEmpty,
  scaleGain: opt(
    check<number>('number other than 0', (v) => Number.isFinite(v) && v !== 0),
    1,
  ),
  scaleOffset: opt(num(), 0),
  scanIntervalMs: ['scanInterval', opt(num(10), 1000)],
  /** Absent: one shared empty list (the model's lists are read-only). */
  transmitEvents: opt(list(TransmitEventRecord), []),
} as const;

/** Where a bus channel's value sits in its data window; `dataSize` defaults to the data type's width. */
const layout = (dataOrder: (typeof DataOrders)[number]) =>
  ({
    dataType: oneOf(DataTypes),
    dataOrder: opt(oneOf(DataOrders), dataOrder),
    dataOffsetBits: ['dataOffset', opt(int(0, 65535 * 16), 0)],
    dataSizeBits: ['dataSize', opt(int(1, 64))],
    bus: str,
  }) as const;

const pin = { pin: int(0) };

/** Fields of each channel type. `readOnly` left absent takes its type's default (parse.ts). */
export const ChannelTypeFields = {
  analogInput: pin,
  analogOutput: pin,
  can: {
    ...layout('littleEndian'),
    canId: opt(int(0, 0x1fffffff)),
    protocol: opt(CanProtocolRecord),
  },
  custom: { customType: oneOf(CustomTypes), readOnly: opt(bool, false) },
  digitalInput: pin,
  digitalOutput: pin,
  location: { timeoutMs: ['timeout', opt(positive, 10000)] },
  modbus: {
    ...layout('bigEndian'),
    deviceAddress: int(1, 247),
    registerType: oneOf(RegisterTypes),
    registerAddress: int(0, 65535),
    readOnly: opt(bool),
  },
} as const;

/** A channel: its `type`, its display fields (checked, not kept), the common fields, then those of its type. */
export const ChannelRecord = union(ChannelTypeFields, ChannelCommon, ChannelDisplay);

/** Read on a CAN channel at its top level and, when absent there, inside `protocol` (decisions 8). */
export const CanExtraFields = { databaseParameterAddress: opt(num()), readOnly: opt(bool) } as const;

/** Buses (spec 2.8; modbus fields decided in decisions 1). */
export const BusRecord = union(
  {
    can: { bitrate: opt(positive, 250000) },
    modbus: {
      baudRate: opt(int(1), 9600),
      dataBits: opt(oneOf([5, 6, 7, 8]), 8),
      parity: opt(oneOf(Parities), 'none'),
      stopBits: opt(oneOf(StopBitsValues), 'one'),
    },
  },
  { uid: str, name: opt(str, ''), key: str },
);

/** Location sub-channels (spec 2.6 location form; decisions 4). */
export const LocationFields = ['lat', 'lon', 'alt', 'pdop', 'hdop', 'vdop', 'sats'] as const;

/** State channel name suffixes (spec 2.6). */
export const StateSide = { desired: '.desired', reported: '.reported' } as const;

/** The hub's path (spec 4.8); its negotiate is the SignalR protocol's `<hub>/negotiate`. */
const hubPath = '/hubs/properties';

/** HTTP paths (spec 4), relative to the base URL. */
export const Paths = {
  devicesGet: '/api/v1/devices/get',
  devicesList: '/api/v1/devices/list',
  devicesSet: '/api/v1/devices/set',
  productsGet: '/api/v1/products/get',
  productsList: '/api/v1/products/list',
  productsSet: '/api/v1/products/set',
  relationsGet: '/api/v1/entities/relations/get',
  relationsInsert: '/api/v1/entities/relations/insert',
  relationsDelete: '/api/v1/entities/relations/delete',
  relationsUpdate: '/api/v1/entities/relations/update',
  propertiesGet: '/api/v1/properties/get',
  propertiesSet: '/api/v1/properties/set',
  channelsList: '/api/v1/channels/list',
  statesReadLast: '/api/v1/states/read/last',
  statesRead: '/api/v1/states/read',
  statesWrite: '/api/v1/states/write',
  measurementsReadLast: '/api/v1/measurements/read/last',
  measurementsRead: '/api/v1/measurements/read',
  measurementsWrite: '/api/v1/measurements/write',
  hub: hubPath,
  hubNegotiate: hubPath + '/negotiate',
} as const;

/**
 * SignalR JSON hub protocol (spec 4.8): the message types a device acts on.
 * Stream messages (2, 4, 5) are ignored by type, not by name.
 */
export const HubMessageType = {
  invocation: 1,
  completion: 3,
  ping: 6,
  close: 7,
} as const;

export const Hub = {
  recordSeparatorChar: '\u001e',
  notify: 'Notify',
  setProperties: 'SetProperties',
  /** decisions 5: Notify argument `type`s. */
  notifyStates: 'states',
  notifyProperties: 'properties',
} as const;

/** Property names (spec 2.5). */
export const PropertyNamePattern = /^[a-z0-9][a-z0-9_-]+$/;

/** No timestamp before this (decisions 4): 2020-01-01T00:00:00Z. */
export const EarliestValidUnixMs = 1577836800000;
