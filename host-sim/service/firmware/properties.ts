/**
 * The firmware properties every device has (decisions 12, shared contract 11):
 * the four desired ones an admin sets (`fw-version`, `fw-url`, `fw-sha256`,
 * `fw-sig`) and the two a board reports with its own token (`fw-running`,
 * `fw-status`), each starting as the empty string. The catalog applies this
 * list to every device (property-definitions.ts), under whatever the fixture
 * gives it; a stored value of a previous run replaces the starting one.
 */
import type { PropertyValue } from '../fixture.js';

/** The desired image, set by an admin (the dashboard, `properties/set`). */
export const desiredFirmwareProperties = ['fw-version', 'fw-url', 'fw-sha256', 'fw-sig'] as const;
/** What the board reports: the version it runs and the state of an update. */
export const reportedFirmwareProperties = ['fw-running', 'fw-status'] as const;

/** The properties defined for every device, with their starting values. */
export const everyDeviceProperties: readonly { name: string; initial: PropertyValue }[] = [
  ...desiredFirmwareProperties,
  ...reportedFirmwareProperties,
].map((name) => ({ name, initial: '' }));
