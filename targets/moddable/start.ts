/**
 * Starts the agent on the Moddable ports.
 *
 * Until the agent core (issue 2) lands, this reads the device's channel
 * configuration once over HTTP and logs what it found: it proves the transport,
 * the token and the validator on the board.
 */
import { parseChannelList } from '../../src/config/parse.js';
import { toAgentError } from '../../src/errors.js';
import { Paths } from '../../src/wire.js';
import type { BoardConfig } from './config.js';
import type { ModdablePorts } from './ports.js';

export function startAgent(board: BoardConfig, ports: ModdablePorts): void {
  const url = `${board.serviceUrl}${Paths.channelsList}?device=${encodeURIComponent(board.deviceKey)}`;
  ports.http
    .request({ method: 'GET', url, headers: { authorization: `Bearer ${board.token}`, accept: 'application/json' } })
    .then((response) => {
      if (response.status !== 200) {
        ports.logger.log('error', 'channels/list refused', { status: response.status });
        return;
      }
      const config = parseChannelList(JSON.parse(response.body));
      ports.logger.log('info', 'configuration read', {
        channels: config.channels.length,
        rejected: config.rejected.length,
        buses: config.buses.length,
      });
    })
    .catch((e: unknown) => ports.logger.log('error', 'channels/list failed', { error: toAgentError(e).message }));
}
