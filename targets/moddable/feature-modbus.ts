/** Modbus RTU on the RS-485 UART the board configuration names (`modbusPort`, bus `modbusBus`). */
import { ModbusProvider } from '../../src/modbus/provider.js';
import type { BoardFeature } from './feature.js';

export const modbusFeature: BoardFeature = {
  name: 'modbus',
  provider(board, { serial, clock, logger }) {
    if (board.modbus === undefined) return undefined;
    return new ModbusProvider({ serial, clock, logger, ports: { [board.modbusBus]: board.modbus } });
  },
};
