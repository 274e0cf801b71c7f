/** Modbus RTU on the RS-485 UART the board configuration names (`modbusPort`, bus `modbusBus`). */
import { ModbusProvider } from '../../src/modbus/provider.js';
import type { BoardFeature } from './feature.js';

export const modbusFeature: BoardFeature = (port, board, { serial, clock, logger }) =>
  new ModbusProvider({
    serial,
    clock,
    logger,
    ports: { [board.modbusBus]: { port, directionPin: board.modbusDirPin } },
  });
