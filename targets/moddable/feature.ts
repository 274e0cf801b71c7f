/**
 * A board feature: a channel provider the firmware links only when its
 * composition root lists it (main.ts: every feature; main-pins.ts: none). What
 * a root does not import, rollup leaves out of the bundle, so a board without
 * Modbus links no Modbus. A feature the board configuration asks for but the
 * firmware does not link is reported at boot, and its channels report
 * -EOPNOTSUPP as any channel without a provider does.
 */
import type { ChannelDriverProvider } from '../../src/agent/driver.js';
import type { Clock, Logger, Serial } from '../../src/ports.js';
import type { BoardConfig } from './config.js';

/** The ports a feature's provider uses (a subset of ModdablePorts). */
export interface FeaturePorts {
  serial: Serial;
  clock: Clock;
  logger: Logger;
}

/** The board configuration entries that turn a feature on. */
export type FeatureName = 'gnss' | 'modbus';

export interface BoardFeature {
  readonly name: FeatureName;
  /** The feature's provider when the board configuration turns it on, else undefined. */
  provider(board: BoardConfig, ports: FeaturePorts): ChannelDriverProvider | undefined;
}

/**
 * What a composition root links: its features and the UART adapter they share
 * (board-serial.ts), which a root without features leaves out too.
 */
export interface LinkedFeatures {
  readonly list: readonly BoardFeature[];
  /** The board's UARTs, built once at boot. */
  serial(board: BoardConfig, clock: Clock): Serial;
}

/** Configured features the firmware does not link (their names). */
export function missingFeatures(board: BoardConfig, features: readonly BoardFeature[]): FeatureName[] {
  const linked = features.map((f) => f.name);
  return (['gnss', 'modbus'] as const).filter((name) => board[`${name}Port`] !== undefined && !linked.includes(name));
}
