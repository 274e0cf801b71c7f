/**
 * Over-the-air updates as a board feature (docs/ota.md), linked by the
 * composition root that lists it (main-ota.ts): the updater of src/ota on the
 * board's ports (ota.ts), acting on the start-up property read and each
 * `properties` Notify, reporting `fw-running` (the board configuration's
 * `fwVersion`) and `fw-status`; the trial's conditions are a delivered batch
 * (the agent's transport is watched) and a hub connection, within `fwTrialS`.
 * A board without `fwKey`, or with a bad one (logged), reports an update as
 * `unsupported`: it installs nothing it cannot verify.
 */
import config from 'mc/config';
import Preference from 'preference';
import { logFailure } from '../../src/errors.js';
import type { ImagePorts } from '../../src/ota/ports.js';
import { watchDelivery } from '../../src/ota/trial.js';
import { Updater } from '../../src/ota/updater.js';
import { CONFIG_DOMAIN } from './config.js';
import type { UpdatesFeature, UpdatesLink, UpdatesPorts } from './feature.js';
import { moddableImagePorts } from './ota.js';
import { readUpdateSettings, type UpdateSettings } from './ota-settings.js';

/** The feature as a root links it: its settings read from the board configuration (throws `config.invalid`). */
export const updatesFeature: UpdatesFeature = (ports) =>
  updatesOn(
    readUpdateSettings(config, (name) => Preference.get(CONFIG_DOMAIN, name)),
    ports,
  );

/** Updates with `board`'s settings on the agent's ports. */
export function updatesOn(board: UpdateSettings, { clock, http, store, logger }: UpdatesPorts): UpdatesLink {
  let updater: Updater | undefined;
  let image: ImagePorts | undefined;
  try {
    if (board.fwKey !== undefined) image = moddableImagePorts(board.fwKey);
  } catch (e) {
    logFailure(logger, 'error', 'ota: no updates', e);
  }
  return {
    http: watchDelivery(http, () => updater?.delivered()),
    offer: (values) => updater?.offer(values),
    start(client, hub) {
      const u = (updater = new Updater({
        clock,
        http,
        store,
        logger,
        client,
        running: board.fwVersion,
        image,
        trialMs: board.fwTrialS * 1000,
      }));
      hub.listen((event) => event === 'connected' && u.hubConnected());
      void u.start();
    },
  };
}
