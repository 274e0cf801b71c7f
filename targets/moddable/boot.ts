/**
 * The firmware's boot, shared by its composition roots (main.ts, main-pins.ts):
 * reads the board configuration (manifest `config`, overridden by `config`
 * preferences), builds the Moddable ports, sets the time, and starts the agent
 * with the features the root links.
 */
import config from 'mc/config';
import Preference from 'preference';
import { AgentError } from '../../src/errors.js';
import { EarliestValidUnixMs } from '../../src/wire.js';
import { CONFIG_DOMAIN, readBoardConfig } from './config.js';
import type { LinkedFeatures } from './feature.js';
import { buildPorts } from './ports.js';
import { startAgent } from './start.js';
import { syncTime } from './time.js';

export function boot(features?: LinkedFeatures): void {
  let board;
  try {
    board = readBoardConfig(config, (name) => Preference.get(CONFIG_DOMAIN, name));
  } catch (e) {
    // The token is never in the image on a board: provision it (and any other setting) into NVS.
    trace(`agent: cannot start: ${e instanceof AgentError ? e.message : String(e)}\n`);
    trace('agent: provision settings with Preference.set("config", name, value), then restart\n');
    return;
  }
  const ports = buildPorts(board);
  ports.logger.log('info', 'agent booting', { service: board.serviceUrl, device: board.deviceKey });
  // setup/network already asked SNTP (config `sntp`) on a board; ask again until it answers.
  if (board.sntpHost !== undefined && Date.now() < EarliestValidUnixMs)
    syncTime(board.sntpHost, ports.clock, ports.logger);
  startAgent(board, ports, features);
}
