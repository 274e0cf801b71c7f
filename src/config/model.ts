/**
 * The typed channel and bus configuration (spec 2.8, 2.9; decisions 1), after
 * validation. Units are in the names: milliseconds end in `Ms`, bit counts in `Bits`.
 */
import type {
  ChannelDisplay,
  ChannelTypeFields,
  CustomTypes,
  DataOrders,
  DataTypeBits,
  Parities,
  RegisterReadOnly,
  StopBitsValues,
} from '../wire.js';
import { AgentError } from '../errors.js';
import type { Read } from '../reader.js';

export type ChannelType = keyof typeof ChannelTypeFields;
export type DataType = keyof typeof DataTypeBits;
export type DataOrder = (typeof DataOrders)[number];
export type RegisterType = keyof typeof RegisterReadOnly;
export type CustomType = (typeof CustomTypes)[number];
/** A channel's uid and display fields, as the dashboard reads them (the agent keeps none). */
export type DisplayFields = Read<typeof ChannelDisplay>;

export type TransmitEvent =
  | { type: 'change' }
  | { type: 'delta'; minimalChange: number }
  | { type: 'interval'; intervalMs: number }
  | { type: 'threshold'; threshold: number; hysteresis: number };

/** What the agent keeps of a channel: the display fields and the uid are checked, not kept (src/wire.ts). */
interface ChannelCommon {
  key: string;
  /** Reported value = raw x scaleGain + scaleOffset. Default 1. */
  scaleGain: number;
  /** Default 0. */
  scaleOffset: number;
  scanIntervalMs: number;
  /** Empty: transmit every scan. */
  transmitEvents: readonly TransmitEvent[];
}

export interface PinChannel extends ChannelCommon {
  type: 'analogInput' | 'analogOutput' | 'digitalInput' | 'digitalOutput';
  pin: number;
}

export interface CustomChannel extends ChannelCommon {
  type: 'custom';
  customType: CustomType;
  readOnly: boolean;
}

export interface LocationChannel extends ChannelCommon {
  type: 'location';
  /** Maximum age of the last valid fix before the channel reports -ETIMEDOUT. */
  timeoutMs: number;
}

/** Where a value sits in a data window (Modbus registers or a CAN payload). */
export interface DataLayout {
  dataType: DataType;
  dataOrder: DataOrder;
  /** Bits into the data window. */
  dataOffsetBits: number;
  /** Bits; defaults to the width of dataType. */
  dataSizeBits: number;
}

export interface ModbusChannel extends ChannelCommon, DataLayout {
  type: 'modbus';
  /** External key of a modbus bus. */
  bus: string;
  deviceAddress: number;
  registerType: RegisterType;
  registerAddress: number;
  readOnly: boolean;
}

export type CanProtocol =
  { type: 'cattron' } | { type: 'j1939'; pgn: number; priority?: number; sourceAddress?: number };

export interface CanChannel extends ChannelCommon, DataLayout {
  type: 'can';
  /** External key of a can bus. */
  bus: string;
  canId?: number;
  protocol?: CanProtocol;
  databaseParameterAddress?: number;
  readOnly: boolean;
}

export type Channel = PinChannel | CustomChannel | LocationChannel | ModbusChannel | CanChannel;

export interface CanBus {
  uid: string;
  name: string;
  key: string;
  type: 'can';
  bitrate: number;
}

export interface ModbusBus {
  uid: string;
  name: string;
  key: string;
  type: 'modbus';
  baudRate: number;
  dataBits: 5 | 6 | 7 | 8;
  parity: (typeof Parities)[number];
  stopBits: (typeof StopBitsValues)[number];
}

export type Bus = CanBus | ModbusBus;

/** A channel that failed validation: reported as an error state, never sampled. */
export interface RejectedChannel {
  key: string | undefined;
  uid: string | undefined;
  reason: string;
}

export interface ChannelConfig {
  buses: Bus[];
  channels: Channel[];
  rejected: RejectedChannel[];
}

/**
 * `channel` as one of `types`, a provider's own: the agent gives a provider only
 * channels of its `types`, so any other is a programmer error (AgentError `internal`).
 */
export function channelOf<T extends ChannelType>(channel: Channel, types: readonly T[]): Extract<Channel, { type: T }> {
  if (!types.includes(channel.type as T))
    throw new AgentError('internal', `${types.join()}: got a ${channel.type} channel`);
  return channel as Extract<Channel, { type: T }>;
}
