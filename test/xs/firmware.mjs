// The firmware's own code on XS, in every `npm test` (`npm run test:firmware`,
// after `npm run build`): targets/moddable/main.ts and its adapters run in an
// XS worker on fakes of the Moddable host modules (test/xs/firmware/), against
// the local service (build/host-sim/service, port 0) over real TCP. No Moddable
// SDK is needed. Scenarios:
// - the SDK's failure modes one by one: refused (Linux: "write failed" thrown
//   in the callback; ESP32: an error callback), reset mid-answer, a malformed
//   status line, WebSocket refused and reset. The adapters turn each into an
//   ordinary failure; the bare fake `http` aborts, as the SDK does;
// - the kept-alive HTTP connection (firmware-http.mjs): fragments, chunked,
//   Connection: close, the server's keep-alive timeout, drops, idle close;
// - states arrive, desired round trip, outage (service stopped 20 s and
//   restarted), boot offline from the cached configuration; 32 channels cached
//   and booted offline (firmware-offline32.mjs).
// Prints the flash writes it counted; exits non-zero on any failure.
// FIRMWARE_LOG=1 shows the firmware's log; arguments run only the cases whose
// name contains one of them (the service scenarios depend on each other).
import { clockCases } from './firmware-clock.mjs';
import { failureModes, provisioning } from './firmware-faults.mjs';
import { keepAlive } from './firmware-http.mjs';
import { firmwareScript } from './firmware-host.mjs';
import { offline32 } from './firmware-offline32.mjs';
import { cleanup, scenarios } from './firmware-service.mjs';
import { cleanupSetup, setupMode } from './firmware-setup.mjs';
import { figures } from './firmware-support.mjs';

let passed = 0;
let skipped = 0;
const failures = [];
const filters = process.argv.slice(2);
async function runAll(title, list) {
  console.log(`  ${title}`);
  for (const [name, fn] of list) {
    if (filters.length > 0 && !filters.some((f) => name.includes(f))) continue;
    try {
      const outcome = await fn();
      if (typeof outcome === 'string' && !outcome.startsWith('skipped')) {
        passed++;
        console.log(`    ✔ ${name} (${outcome})`);
        continue;
      }
      if (typeof outcome === 'string' && outcome.startsWith('skipped')) {
        skipped++;
        console.log(`    - ${name} (${outcome})`);
        continue;
      }
      passed++;
      console.log(`    ✔ ${name}`);
    } catch (e) {
      failures.push({ name, error: e });
      console.log(`    ✗ ${name}`);
    }
  }
}

const started = Date.now();
try {
  const code = await firmwareScript();
  console.log(
    `firmware on XS (xsnap): bundle ${(code.length / 1024).toFixed(0)} KiB, fakes of the Moddable host modules`,
  );
  await runAll('the SDK failure modes through the adapters', failureModes);
  await runAll('the kept-alive HTTP connection', keepAlive);
  await runAll('provisioning', provisioning);
  await runAll("the board clock's reusable timer", clockCases);
  await runAll('the firmware against the local service', scenarios);
  await runAll('32 channels offline', offline32);
  await runAll('setup mode (main-setup.ts)', setupMode);
} finally {
  await cleanup();
  await cleanupSetup();
}
failures.forEach((f, i) =>
  console.log(`\n${i + 1}) ${f.name}\n   ${String(f.error?.stack || f.error).replace(/\n/g, '\n   ')}`),
);
const perSecond = (f) => (f === undefined ? undefined : +((f.count * 1000) / f.virtualMs).toFixed(2));
console.log(
  `\nflash writes: online ${figures.flashOnline?.count} (${figures.flashOnline?.bytes} B) in ` +
    `${figures.flashOnline?.virtualMs} virtual ms (${perSecond(figures.flashOnline)}/s); ` +
    `outage ${figures.flashOutage?.count} (${figures.flashOutage?.bytes} B) in 20 s (${perSecond(figures.flashOutage)}/s)`,
);
if (figures.liveHeap !== undefined) {
  const h = figures.liveHeap;
  console.log(
    `live heap of the running firmware (demo device, hub up; empty xsnap subtracted): ${h.slots} slots, ` +
      `${h.snapshotBytes} B as a snapshot (64-bit)`,
  );
}
console.log(`firmware XS run: ${Date.now() - started} ms`);
console.log(`firmware XS: ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
console.log(JSON.stringify(figures));
process.exit(failures.length > 0 ? 1 : 0);
