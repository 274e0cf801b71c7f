/**
 * The demo fixture's product configuration (host-sim/service/fixtures/demo.json)
 * and the demo register map, for the Node-side bus tests.
 */
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
