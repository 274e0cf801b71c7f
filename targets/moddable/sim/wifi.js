/*
 * The desktop simulator's stand-in for `dds/wifi` (manifest.json maps it for
 * lin, mac and win, and the firmware-on-XS run uses it too): no radio. Setup
 * mode serves on the host's network at `setupPort`, settings carry no Wi-Fi,
 * and a board configuration without `ssid` is complete.
 */
export const radio = false;

export function accessPoint(ssid) {
  trace(`sim: no radio, no access point ${ssid}\n`);
}

export function join() {
  return Promise.resolve();
}
