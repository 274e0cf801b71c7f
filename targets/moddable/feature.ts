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
import type { Clock, HttpTransport, KeyValueStore, Logger, Serial } from '../../src/ports.js';
import type { ServiceClient } from '../../src/service/client.js';
import type { HubClient } from '../../src/signalr/hub-client.js';
import type { BoardConfig, SerialPins } from './config.js';
import { warn } from '../../src/errors.js';

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
  /**
   * The board's UARTs on `pins` (by port number), built once, when the first
   * feature starts; a port is opened later, when a channel needs it.
   */
  serial?(pins: Readonly<Record<string, SerialPins>>, clock: Clock): Serial;
  /** Over-the-air updates (feature-ota.ts), where the root links them. */
  updates?: UpdatesFeature;
}

/** What boot hands the updates feature: the agent's ports, before the agent is built. */
export interface UpdatesPorts {
  clock: Clock;
  http: HttpTransport;
  store: KeyValueStore;
  logger: Logger;
}

/** The updates feature's hooks into boot. */
export interface UpdatesLink {
  /** The agent's transport, watched for delivered batches (the trial's condition). */
  http: HttpTransport;
  /** Receives each `properties` Notify's values. */
  offer(values: unknown): void;
  /** Once the agent started and the hub was built: starts the updater. */
  start(client: ServiceClient, hub: HubClient): void;
}

/** Throws `config.invalid` for a bad update setting (ota-settings.ts): the agent does not start. */
export type UpdatesFeature = (ports: UpdatesPorts) => UpdatesLink;

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
  // Each feature's UART: `<name>Port` on pins `<name>Rx` and `<name>Tx`.
  const pins: Record<string, SerialPins> = {};
  for (const name of ['gnss', 'modbus'] as const) {
    const port = board[`${name}Port`];
    const feature = linked?.[name];
    if (port === undefined) continue;
    pins[port] = { receive: board[`${name}Rx`], transmit: board[`${name}Tx`] };
    if (linked?.serial && feature)
      providers.push(feature(port, board, (ports ??= { serial: linked.serial(pins, clock), clock, logger })));
    else warn(logger, 'boot: feature not in this firmware', { feature: name });
  }
  return providers;
}
