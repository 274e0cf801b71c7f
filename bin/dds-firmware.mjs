#!/usr/bin/env node
// dds-firmware: firmware signing keys and signed images for updates (builds first when a source changed).
import { run } from './run.mjs';

await run('host-sim/firmware/cli.js');
