/**
 * The architecture's import table (support/imports.ts), checked over the
 * whole tree with the TypeScript parser, and the checker itself tested: a
 * deliberately misplaced import in each direction is caught, however it is
 * written, and the imports each part may make are not.
 */
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { breaches, importsOf, moddableModules, violation, type Judge } from './support/imports.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const judge: Judge = { root, moddable: moddableModules(root) };

/** The rule an import written in `text`, in a file at `path` (relative to the root), breaks. */
function judged(path: string, text: string): Array<string | undefined> {
  return importsOf(join(root, path), text).map((imp) => violation(judge, imp));
}

describe('the architecture: one-way imports', function () {
  this.timeout(20000);

  it('the core imports nothing outside src/', () => {
    const { files, found } = breaches(judge, ['src']);
    assert.ok(files > 50, `the walk saw ${files} files`);
    assert.deepEqual(found, []);
  });

  it('the Moddable target imports no Node module, no Node target, no simulator', () => {
    const { files, found } = breaches(judge, ['targets/moddable']);
    assert.ok(files > 5);
    assert.deepEqual(found, []);
  });

  it('the Node target imports no simulator', () => {
    const { files, found } = breaches(judge, ['targets/node']);
    assert.ok(files > 5);
    assert.deepEqual(found, []);
  });

  it('the service imports no agent code, bar the shared SignalR record codec', () => {
    const { files, found } = breaches(judge, ['host-sim/service']);
    assert.ok(files > 5);
    assert.deepEqual(found, []);
  });
});

describe('the architecture checker (a test of the test)', () => {
  it('reads imports the old regex missed: split over lines, type-only, re-exports, import(), require, import types', () => {
    const text = [
      'import {',
      '  a,',
      '  b,',
      "} from '../targets/node/store.js';",
      "import type { C } from '../host-sim/pins/sim-pins.js';",
      "export * from 'node:fs';",
      "const m = await import('../host-sim/device/device.js');",
      "import fs = require('fs');",
      "let t: import('../targets/moddable/ports.js').ModdablePorts;",
    ].join('\n');
    const found = importsOf(join(root, 'src/probe.ts'), text);
    assert.deepEqual(
      found.map((i) => [i.line, i.specifier]),
      [
        [4, '../targets/node/store.js'],
        [5, '../host-sim/pins/sim-pins.js'],
        [6, 'node:fs'],
        [7, '../host-sim/device/device.js'],
        [8, 'fs'],
        [9, '../targets/moddable/ports.js'],
      ],
    );
    assert.ok(judged('src/probe.ts', text).every((why) => why === 'the core imports nothing outside src/'));
  });

  it('catches a misplaced import in each direction', () => {
    const cases: Array<[string, string, string]> = [
      ['src/agent/probe.ts', "import { FileStore } from '../../targets/node/store.js';", 'the core imports nothing'],
      ['src/agent/probe.ts', "import { readFileSync } from 'node:fs';", 'the core imports nothing'],
      ['src/agent/probe.ts', "import { WebSocket } from 'ws';", 'the core imports nothing'],
      ['targets/moddable/probe.ts', "import { readFileSync } from 'node:fs';", 'no Node module'],
      ['targets/moddable/probe.ts', "import { WebSocket } from 'ws';", 'only Moddable SDK modules'],
      ['targets/moddable/probe.ts', "import { NodeSerial } from '../node/serial.js';", 'no node code'],
      ['targets/moddable/probe.ts', "import { SimPins } from '../../host-sim/pins/sim-pins.js';", 'no simulator code'],
      ['targets/node/probe.ts', "import { SimPins } from '../../host-sim/pins/sim-pins.js';", 'imports no simulator'],
      ['targets/node/probe.ts', "const s = await import('../../host-sim/service/index.js');", 'imports no simulator'],
      ['targets/node/probe.ts', "import { boot } from '../moddable/boot.js';", 'no Moddable target'],
      ['host-sim/service/probe.ts', "import { Agent } from '../../src/agent/agent.js';", 'no agent code'],
      ['host-sim/service/probe.ts', "import { NodeSerial } from '../../targets/node/serial.js';", 'no agent code'],
    ];
    for (const [path, text, rule] of cases) {
      const [why] = judged(path, text);
      assert.ok(why?.includes(rule), `${path}: ${text} -> ${String(why)}`);
    }
  });

  it('lets each part import what it may', () => {
    const cases: Array<[string, string]> = [
      ['src/agent/probe.ts', "import { Errno } from '../errno.js';"],
      ['targets/moddable/probe.ts', "import { Agent } from '../../src/agent/agent.js';"],
      ['targets/moddable/probe.ts', "import Serial from 'embedded:io/serial';"],
      ['targets/moddable/probe.ts', "import { Request } from 'http';"],
      ['targets/node/probe.ts', "import { SerialPort } from 'serialport';"],
      ['targets/node/probe.ts', "import { readFileSync } from 'node:fs';"],
      ['host-sim/device/probe.ts', "import { startNodeAgent } from '../../targets/node/runtime.js';"],
      ['host-sim/service/probe.ts', "import { encodeRecord } from '../../src/signalr/record-codec.js';"],
      ['host-sim/service/probe.ts', "import { generatePki } from '../tls/pki.js';"],
    ];
    for (const [path, text] of cases) assert.deepEqual(judged(path, text), [undefined], `${path}: ${text}`);
  });
});
