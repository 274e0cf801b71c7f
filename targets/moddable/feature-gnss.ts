/** The GNSS receiver on the UART the board configuration names (`gnssPort`). */
import { GnssLocationProvider } from '../../src/gnss/location-provider.js';
import type { BoardFeature } from './feature.js';

export const gnssFeature: BoardFeature = {
  name: 'gnss',
  provider(board, { serial, clock, logger }) {
    if (board.gnssPort === undefined) return undefined;
    const port = { port: board.gnssPort, baudRate: board.gnssBaud };
    return new GnssLocationProvider({ serial, port, clock, logger });
  },
};
