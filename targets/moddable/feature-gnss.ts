/** The GNSS receiver on the UART the board configuration names (`gnssPort`). */
import { GnssLocationProvider } from '../../src/gnss/location-provider.js';
import type { BoardFeature } from './feature.js';

export const gnssFeature: BoardFeature = {
  name: 'gnss',
  provider(board, { serial, clock, logger }) {
    if (board.gnss === undefined) return undefined;
    const port = { port: board.gnss.port, baudRate: board.gnss.baudRate };
    return new GnssLocationProvider({ serial, port, clock, logger });
  },
};
