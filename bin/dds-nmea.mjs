#!/usr/bin/env node
// dds-nmea: checks a GNSS receiver's NMEA output (builds first when a source changed).
import { run } from './run.mjs';

await run('host-sim/nmea-cli.js');
