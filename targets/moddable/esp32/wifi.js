/*
 * Wi-Fi for setup mode on an ESP32 (manifest.json maps `dds/wifi` here for
 * esp32; the simulator's sim/wifi.js has no radio). Over the SDK's `wifi`
 * module: an access point named after the device, WPA2 with the password that
 * setup mode prints on the console (docs/moddable.md says why not an open one),
 * the station joined alongside it to try the settings, and joined alone once
 * they are stored. Untested on hardware by the project's CI (no board there).
 */
import Timer from 'timer';
import WiFi from 'wifi';

const JOIN_MS = 20000;

export const radio = true;

/** Opens the access point `ssid` with WPA2 `password`, keeping the station mode for a trial. */
export function accessPoint(ssid, password) {
  WiFi.mode = WiFi.Mode.station | WiFi.Mode.accessPoint;
  WiFi.accessPoint({ ssid, password, channel: 6, hidden: false, max: 2 });
}

/** Joins `ssid`; resolves once an address is obtained, rejects on a refusal or after 20 s. */
export function join(ssid, password, keepAccessPoint) {
  return new Promise((resolve, reject) => {
    if (!keepAccessPoint) WiFi.mode = WiFi.Mode.station;
    let done = false;
    const monitor = new WiFi(password ? { ssid, password } : { ssid }, (message) => {
      if (message === WiFi.gotIP) finish();
      else if (message === WiFi.disconnected) finish('refused or out of range');
    });
    const timer = Timer.set(() => finish('no address in 20 s'), JOIN_MS);
    function finish(reason) {
      if (done) return;
      done = true;
      Timer.clear(timer);
      monitor.close();
      if (reason === undefined) resolve();
      else reject(new Error(reason));
    }
  });
}
