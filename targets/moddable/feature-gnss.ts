/** The GNSS receiver on the UART the board configuration names (`gnssPort`, `gnssBaud`). */
import { GnssLocationProvider } from '../../src/gnss/location-provider.js';
import type { BoardFeature } from './feature.js';

export const gnssFeature: BoardFeature = (port, board, ports) =>
  new GnssLocationProvider({ ...ports, port: { port, baudRate: board.gnssBaud } });
