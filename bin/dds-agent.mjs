#!/usr/bin/env node
// dds-agent: the agent on the Node target (real serial ports) (builds first when a source changed).
import { run } from './run.mjs';

await run('targets/node/main.js');
