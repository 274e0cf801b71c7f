#!/usr/bin/env node
// dds-device: the agent with the simulator's hardware plugged in (builds first when a source changed).
import { run } from './run.mjs';

await run('host-sim/device/main.js');
