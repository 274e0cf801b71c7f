/**
 * The provisionable firmware's boot (main-setup.ts; decisions 11): boot.ts's,
 * with setup mode (setup-mode.ts) in front of it. A board whose setup button is
 * held at boot, or whose configuration lacks what only provisioning gives (the
 * service, the device, the token, the Wi-Fi network), serves the setup page
 * instead of starting the agent, and starts it once provisioned; a provisioned
 * board joins its network, then runs the agent as boot.ts does, a PEM `caCert`
 * decoded. Any other bad setting stops the boot as it does there.
 */
import { messageOf } from '../../src/errors.js';
import { cannotStart, readBoard, run } from './boot.js';
import { ModdableClock } from './clock.js';
import type { BoardConfig } from './config.js';
import type { LinkedFeatures } from './feature.js';
import type { SetupFeature } from './setup-mode.js';

/** The settings only provisioning gives: their absence starts setup mode. */
const PROVISIONED = /^board config: (serviceUrl|deviceKey|token|ssid):/;

/** Boots with setup mode: `setup` is setup-mode.ts's feature (a fake in the XS tests). */
export function bootWithSetup(features: LinkedFeatures, setup: SetupFeature): void {
  const clock = new ModdableClock();
  const start = (): void => startAgent(clock, features, setup);
  if (!setup.held(clock, start)) start();
}

function startAgent(clock: ModdableClock, features: LinkedFeatures, setup: SetupFeature): void {
  let board: BoardConfig;
  try {
    board = readBoard();
    setup.checkNetwork();
  } catch (e) {
    const message = messageOf(e);
    if (PROVISIONED.test(message))
      setup.start(`not provisioned (${message})`, clock, () => startAgent(clock, features, setup));
    else cannotStart(e);
    return;
  }
  setup.network(() => run(board, clock, features, setup.pemToDer));
}
