/**
 * Every wire name the agent and the local service use, in one place
 * (decisions.md: "keeps every wire name in one module, so that a correction is
 * one edit"). Names the specification shows are marked `spec`; names decided in
 * shared/spec/decisions.md section 1 are marked `decided`.
 */

/** Channel fields inside `channels/list` (spec 2.9, decisions 1). */
export const ChannelWire = {
  uid: 'uid', // spec
  group: 'group', // spec
  name: 'name', // spec
  key: 'key', // spec
  type: 'type', // spec
  aggregated: 'aggregated', // spec
  aggregatedLast: 'aggregatedLast', // spec
  order: 'order', // spec
  scaleGain: 'scaleGain', // spec
  scaleOffset: 'scaleOffset', // spec
  scanInterval: 'scanInterval', // spec, milliseconds
  visible: 'visible', // spec
  bus: 'bus', // spec
  dataOffset: 'dataOffset', // spec, bits
  dataOrder: 'dataOrder', // spec
  dataSize: 'dataSize', // spec, bits
  dataType: 'dataType', // spec
  canId: 'canId', // spec
  protocol: 'protocol', // spec: { type, pgn, priority, sourceAddress }
  transmitEvents: 'transmitEvents', // decided
  unit: 'unit', // decided
  pin: 'pin', // decided
  databaseParameterAddress: 'databaseParameterAddress', // decided
  readOnly: 'readOnly', // decided
  customType: 'customType', // decided
  timeout: 'timeout', // decided, milliseconds
  deviceAddress: 'deviceAddress', // decided, 1..247
  registerType: 'registerType', // decided
  registerAddress: 'registerAddress', // decided, 0-based
} as const;

/** Fields of `protocol` on a CAN channel (spec 2.9). */
export const ProtocolWire = {
  type: 'type',
  pgn: 'pgn',
  priority: 'priority',
  sourceAddress: 'sourceAddress',
} as const;

/** Transmit event entries (decisions 1). */
export const TransmitEventWire = {
  type: 'type',
  minimalChange: 'minimalChange', // delta
  interval: 'interval', // interval, milliseconds
  threshold: 'threshold', // threshold
  hysteresis: 'hysteresis', // threshold
} as const;

/** Bus fields (spec 2.8; modbus names decided in decisions 1). */
export const BusWire = {
  uid: 'uid',
  name: 'name',
  key: 'key',
  type: 'type',
  bitrate: 'bitrate', // spec, can
  baudRate: 'baudRate', // decided, modbus
  dataBits: 'dataBits', // decided, modbus
  parity: 'parity', // decided, modbus
  stopBits: 'stopBits', // decided, modbus
} as const;

/** The enumerations of the specification, as `as const` tables. */
export const ChannelTypes = [
  'analogInput',
  'analogOutput',
  'can',
  'custom',
  'digitalInput',
  'digitalOutput',
  'location',
  'modbus',
] as const;
export const Aggregates = ['derivative.1s', 'derivative.1m', 'derivative.1h', 'last', 'max', 'mean', 'min'] as const;
export const LastAggregates = ['derivative.1s', 'derivative.1m', 'derivative.1h', 'last'] as const;
export const DataTypes = [
  'bool',
  'int8',
  'uint8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'float32',
  'float64',
  'siemensTotalType',
] as const;
export const DataOrders = ['littleEndian', 'bigEndian'] as const;
export const RegisterTypes = ['discreteInput', 'coil', 'inputRegister', 'holdingRegister'] as const;
export const CustomTypes = ['boolean', 'decimal', 'number'] as const;
export const CanProtocols = ['cattron', 'j1939'] as const;
export const TransmitEventTypes = ['change', 'delta', 'interval', 'threshold'] as const;
export const Parities = ['none', 'odd', 'even', 'mark', 'space'] as const;
export const StopBitsValues = ['none', 'one', 'two', 'onePointFive'] as const;
export const BusTypes = ['can', 'modbus'] as const;

/** Location sub-channels (spec 2.6 location form; decisions 4). */
export const LocationFields = ['lat', 'lon', 'alt', 'pdop', 'hdop', 'vdop', 'sats'] as const;

/** State channel name suffixes (spec 2.6). */
export const StateSide = { desired: '.desired', reported: '.reported' } as const;

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
  hub: '/hubs/properties',
  hubNegotiate: '/hubs/properties/negotiate',
} as const;

/** SignalR JSON hub protocol (spec 4.8). */
export const HubMessageType = {
  invocation: 1,
  streamItem: 2,
  completion: 3,
  streamInvocation: 4,
  cancelInvocation: 5,
  ping: 6,
  close: 7,
} as const;

export const Hub = {
  recordSeparator: 0x1e,
  recordSeparatorChar: '\u001e',
  notify: 'Notify',
  setProperties: 'SetProperties',
  /** decisions 5: Notify argument `type`s. */
  notifyStates: 'states',
  notifyProperties: 'properties',
  /** Measurements pushed to observing connections only (docs/dashboard.md). */
  notifyMeasurements: 'measurements',
} as const;

/** Property names (spec 2.5). */
export const PropertyNamePattern = /^[a-z0-9][a-z0-9_-]+$/;

/** No timestamp before this (decisions 4): 2020-01-01T00:00:00Z. */
export const EarliestValidUnixMs = 1577836800000;
