/** Modbus RTU on the RS-485 UART the board configuration names (`modbusPort`, bus `modbusBus`). */
import { ModbusProvider } from '../../src/modbus/provider.js';
import type { BoardFeature } from './feature.js';

export const modbusFeature: BoardFeature = (port, board, shared) =>
  new ModbusProvider({ ...shared, ports: { [board.modbusBus]: { port, directionPin: board.modbusDirPin } } });
