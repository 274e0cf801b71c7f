/**
 * A board feature: a channel provider the firmware links only when its
 * composition root lists it (main.ts: every feature; main-pins.ts: none). What
 * a root does not import, rollup leaves out of the bundle, so a board without
 * Modbus links no Modbus. A feature starts only when the board configuration
 * names its UART (`gnssPort`, `modbusPort`); one the configuration names but
 * the firmware does not link is reported at boot, and its channels report
 * -EOPNOTSUPP as any channel without a provider does.
 */
import type { ChannelDriverProvider } from '../../src/agent/driver.js';
import type { Clock, Logger, Serial } from '../../src/ports.js';
import type { BoardConfig } from './config.js';

/** The ports a feature's provider uses. */
export interface FeaturePorts {
  serial: Serial;
  clock: Clock;
  logger: Logger;
}

/** The features, each turned on by the board configuration's `<name>Port`. */
export type FeatureName = 'gnss' | 'modbus';

/** Makes a feature's provider on UART `port` (the board configuration's `<name>Port`). */
export type BoardFeature = (port: number, board: BoardConfig, ports: FeaturePorts) => ChannelDriverProvider;

/**
 * What a composition root links: its features by name and the UART adapter
 * they share (board-serial.ts), which a root without features leaves out too.
 */
export interface LinkedFeatures extends Partial<Record<FeatureName, BoardFeature>> {
  /** The board's UARTs, built once, when the first feature starts. */
  serial(board: BoardConfig, clock: Clock): Serial;
}

/**
 * The providers of the linked features the board configuration turns on; each
 * configured feature the firmware does not link is logged with its name.
 */
export function startFeatures(
  board: BoardConfig,
  linked: LinkedFeatures | undefined,
  clock: Clock,
  logger: Logger,
): ChannelDriverProvider[] {
  const providers: ChannelDriverProvider[] = [];
  let ports: FeaturePorts | undefined;
  for (const name of ['gnss', 'modbus'] as const) {
    const port = board[`${name}Port`];
    const feature = linked?.[name];
    if (port === undefined) continue;
    if (linked && feature)
      providers.push(feature(port, board, (ports ??= { serial: linked.serial(board, clock), clock, logger })));
    else logger.log('warn', 'boot: feature not in this firmware', { feature: name });
  }
  return providers;
}
