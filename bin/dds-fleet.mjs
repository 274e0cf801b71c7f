#!/usr/bin/env node
// dds-fleet: npm run fleet: simulated devices (real agents) against a service (builds first when a source changed).
import { run } from './run.mjs';

await run('host-sim/fleet/cli.js');
