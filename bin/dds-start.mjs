#!/usr/bin/env node
// dds-start: npm start: the local service and one simulated device, live (builds first when a source changed).
import { run } from './run.mjs';

await run('host-sim/start.js');
