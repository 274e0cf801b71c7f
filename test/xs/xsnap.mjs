// Starts an XS worker (Moddable's XS engine, through @agoric/xsnap) for the XS
// test runner and bench/xs.mjs. xsnap's Node API wants SES (harden, assert)
// installed first; it is imported here, late, so that rollup runs before
// lockdown freezes the intrinsics of this Node process.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { type as osType } from 'node:os';

/**
 * @param {{ name: string, handleCommand?: (bytes: Uint8Array) => Promise<Uint8Array> }} options
 * @returns the xsnap worker: evaluate(code) resolves with `{ reply, meterUsage }`
 *   where meterUsage has `compute` (computrons of that crank), `currentHeapCount`
 *   (heap slots in use) and `allocate` (bytes the machine has reserved).
 */
export async function startXs({ name, handleCommand }) {
  await import('@endo/init');
  const { xsnap } = await import('@agoric/xsnap');
  const tmp = (await import('tmp')).default;
  return xsnap({
    name,
    os: osType(),
    spawn,
    fs: { ...fs, ...fsp, tmpName: tmp.tmpName },
    ...(handleCommand === undefined ? {} : { handleCommand }),
    meteringLimit: 0,
    stdout: 'inherit',
    stderr: 'inherit',
  });
}
