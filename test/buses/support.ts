/**
 * Shared set-up of the Node-side bus tests: the demo fixture's product
 * configuration (host-sim/service/fixtures/demo.json), the demo register map,
 * and a pseudo-terminal pair from socat.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseChannelList } from '../../src/config/parse.js';
import type { ChannelConfig } from '../../src/config/model.js';
import { parseRegisterMap, type RegisterMap } from '../../host-sim/modbus/register-map.js';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The demo product's buses and channels, validated. */
export function demoConfig(): ChannelConfig {
  const fixture = JSON.parse(readFileSync(join(repoRoot, 'host-sim/service/fixtures/demo.json'), 'utf8')) as {
    products: { buses: unknown[]; channels: unknown[] }[];
  };
  const product = fixture.products[0];
  if (product === undefined) throw new Error('demo fixture has no product');
  return parseChannelList({ buses: product.buses, channels: product.channels });
}

/** A fresh copy of host-sim/modbus/demo-map.json. */
export function demoRegisterMap(): RegisterMap {
  return parseRegisterMap(JSON.parse(readFileSync(join(repoRoot, 'host-sim/modbus/demo-map.json'), 'utf8')));
}

/** Starts socat and resolves with the two pty paths it reports. */
export function ptyPair(): Promise<{ socat: ChildProcess; a: string; b: string }> {
  return new Promise((resolve, reject) => {
    const socat = spawn('socat', ['-d', '-d', 'pty,raw,echo=0', 'pty,raw,echo=0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const paths: string[] = [];
    let text = '';
    socat.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      for (const m of text.matchAll(/PTY is (\S+)/g)) if (m[1] !== undefined && !paths.includes(m[1])) paths.push(m[1]);
      if (/starting data transfer loop/.test(text) && paths.length === 2)
        resolve({ socat, a: paths[0] ?? '', b: paths[1] ?? '' });
    });
    socat.once('error', reject);
    socat.once('exit', (code) => reject(new Error(`socat exited (${String(code)}): ${text}`)));
  });
}
