#!/usr/bin/env node
// dds-provision: gives a board in setup mode its service, device, token and Wi-Fi (builds first when a source changed).
import { run } from './run.mjs';

await run('host-sim/provision/cli.js');
