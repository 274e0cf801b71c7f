#!/usr/bin/env node
/**
 * `npm run agent` (bin `dds-agent`): the agent on the Node target alone, for a
 * gateway with real serial ports. No simulator module is loaded; simulated
 * hardware is `npm run device` (host-sim/device/main.ts).
 *
 *   DDS_TOKEN=... npm run agent -- --service URL --device KEY --gnss /dev/ttyUSB0 --bus rs485=/dev/ttyUSB1
 */
import { runAgentCli } from './cli.js';

runAgentCli(process.argv.slice(2), { command: { name: 'npm run agent --' } }).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`agent: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
