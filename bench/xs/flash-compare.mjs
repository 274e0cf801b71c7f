// The flash section of bench/xs.mjs: bench:field's store-writes scenario (bench/field/flash.ts, through
// the workload bench/xs/flash.ts): the core's Batcher and Outbox over a store port that counts bytes and
// writes, online and during outages. XS runs the bundle in xsnap; Node runs bench:field's build of the
// same modules (build/bench/xs/flash.js). Same core code: every figure must agree, and the bench exits 1
// if one does not.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleScript } from '../../test/xs/run.mjs';
import { startXs } from '../../test/xs/xsnap.mjs';

/** Store writes (sets) per hour of the run, the drain after an outage included. */
const perHour = (f, seconds) => +((f.sets * 3600) / seconds).toFixed(1);

/**
 * The flash workload's bundle. Bundle it before the run starts any xsnap worker: rollup's WASM parser, later
 * in a process that has grown, failed with "DataView.prototype.getInt32 on a detached ArrayBuffer".
 */
export function bundleFlash(root) {
  return bundleScript([join(root, 'bench', 'xs', 'flash.ts')]);
}

export async function compareFlash(root, code) {
  const worker = await startXs({ name: 'bench-xs-flash' });
  let xsRows;
  let computrons;
  try {
    await worker.evaluate(code);
    const { reply, meterUsage } = await worker.evaluate(
      'const s = JSON.stringify(__flash.runs()); new TextEncoder().encode(s).buffer',
    );
    xsRows = JSON.parse(new TextDecoder().decode(reply));
    computrons = meterUsage.compute;
  } finally {
    await worker.close().catch(() => undefined);
  }
  const { flash } = await import(pathToFileURL(join(root, 'build', 'bench', 'xs', 'flash.js')).href);
  const nodeRows = flash.runs();
  const runs = {};
  const disagree = [];
  for (const [i, xsRow] of xsRows.entries()) {
    const nodeRow = nodeRows[i];
    const row = { seconds: xsRow.seconds };
    for (const kind of ['ring', 'writeThrough']) {
      const [a, b] = [xsRow[kind], nodeRow[kind]];
      if (nodeRow.name !== xsRow.name || JSON.stringify(a) !== JSON.stringify(b))
        disagree.push(`${xsRow.name} ${kind}`);
      row[kind] = {
        xs: { ...a, writesPerHour: perHour(a, xsRow.seconds) },
        node: { ...b, writesPerHour: perHour(b, nodeRow.seconds) },
      };
    }
    runs[xsRow.name] = row;
  }
  return { runs, computrons, agree: disagree.length === 0, disagree };
}

const ratio = (a, b) => (b === 0 ? (a === 0 ? '1.00' : 'inf') : (a / b).toFixed(2));

export function printFlash(f) {
  console.log(
    `flash (bench/xs/flash.ts = bench:field's scenario): store bytes written per record delivered, 8 channels at ` +
      `1 Hz; XS beside Node (same core code), ratio XS / Node; ${f.computrons} computrons on XS for all runs`,
  );
  for (const [name, row] of Object.entries(f.runs)) {
    for (const kind of ['ring', 'writeThrough']) {
      const { xs: a, node: b } = row[kind];
      console.log(
        `${name.padEnd(12)} ${kind === 'ring' ? 'ring outbox ' : 'write-thru  '}: XS ${a.bytesPerRecord} B/record, ` +
          `${a.sets} writes (${a.writesPerHour}/h), ${a.deletes} deletes, ${a.keysUsed} keys, ${a.records} records | ` +
          `Node ${b.bytesPerRecord} B/record, ${b.sets} writes (${b.writesPerHour}/h), ${b.deletes} deletes, ` +
          `${b.keysUsed} keys, ${b.records} records | ratio ${ratio(a.bytesPerRecord, b.bytesPerRecord)}x B/record, ` +
          `${ratio(a.sets, b.sets)}x writes`,
      );
    }
  }
  if (!f.agree) {
    console.log(
      `flash: XS and Node DISAGREE on ${f.disagree.join(', ')} (the same core code must give the same figures)`,
    );
    process.exitCode = 1;
  }
}
