#!/usr/bin/env node
// dds-openapi: npm run openapi: the service's OpenAPI document (builds first when a source changed).
import { run } from './run.mjs';

await run('host-sim/service/openapi-cli.js');
