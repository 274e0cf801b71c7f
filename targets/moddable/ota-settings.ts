/**
 * The board settings of over-the-air updates (docs/ota.md), read like every
 * board setting (config.ts: the manifest's `config`, overridden by preferences
 * in domain `config`) but only by the firmware that links updates
 * (feature-ota.ts), so that the others carry neither the table nor its checks.
 * A bad one stops the boot with `config.invalid` naming it, as any board
 * setting does.
 */
import { readSettings, type Setting } from './config.js';

export interface UpdateSettings {
  /** The version this build runs (`fw-running`); set per build (`mcconfig ... fwVersion=1.2.0`). */
  fwVersion: string;
  /** The vendor's update key: base64 DER of an EC P-256 public key (none: updates are `unsupported`). */
  fwKey: string | undefined;
  /** Time a new image has to deliver a batch and connect to the hub before it rolls back, seconds. */
  fwTrialS: number;
}

const UPDATE_SETTINGS: Readonly<Record<keyof UpdateSettings, Setting>> = {
  fwVersion: [/^[\w.+-]{1,64}$/, 'a version', '0.0.0'],
  fwKey: [/^[A-Za-z0-9+/]{120,124}={0,2}$/, 'base64 DER EC P-256 public key'],
  fwTrialS: [10, 86400, 300],
};

/** The update settings from `manifest` config and `override(name)` values; throws `config.invalid`. */
export function readUpdateSettings(manifest: unknown, override: (name: string) => unknown): UpdateSettings {
  return readSettings<UpdateSettings>(UPDATE_SETTINGS, manifest, override);
}
