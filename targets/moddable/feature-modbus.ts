/** Modbus RTU on the RS-485 UART the board configuration names (`modbusPort`, bus `modbusBus`). */
import { ModbusProvider } from '../../src/modbus/provider.js';
import type { BoardFeature } from './feature.js';

export const modbusFeature: BoardFeature = {
  name: 'modbus',
  provider(board, { serial, clock, logger }) {
    if (board.modbus === undefined) return undefined;
    const wiring =
      board.modbus.directionPin === undefined
        ? { port: board.modbus.port }
        : { port: board.modbus.port, directionPin: board.modbus.directionPin };
    return new ModbusProvider({ serial, clock, logger, ports: { [board.modbusBus]: wiring } });
  },
};
