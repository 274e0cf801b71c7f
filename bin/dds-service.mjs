#!/usr/bin/env node
// dds-service: the local Device Data Service (builds first when a source changed).
import { run } from './run.mjs';

await run('host-sim/service/cli.js');
