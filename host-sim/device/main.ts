#!/usr/bin/env node
/**
 * `npm run device` (bin `dds-device`): the Node agent with the simulator's
 * hardware plugged in: simulated pins driven by a scenario, the simulated GNSS
 * receiver, Modbus slave and J1939 engine. Same flags as `npm run agent`, plus
 * `--scenario` and the simulated targets of host-sim/hardware/plug.ts.
 *
 *   DDS_TOKEN=device-token-demo-001 npm run device -- --service http://127.0.0.1:8080 --device demo-001 \
 *     --gnss simulated --bus rs485=sim --bus can0=j1939-sim
 */
import { runAgentCli } from '../../targets/node/cli.js';
import { deviceCommand } from '../hardware/agent.js';
import { simulatorPlug } from '../hardware/plug.js';

runAgentCli(process.argv.slice(2), { command: deviceCommand, hardware: simulatorPlug() }).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`device: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
