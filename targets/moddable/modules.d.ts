/**
 * Modules the firmware links that @moddable/typings does not declare: the
 * SDK's `rng` (modules/crypt/etc/rng.js, linked with its TLS), and `dds/wifi`,
 * which manifest.json maps per platform (esp32/wifi.js on an ESP32, the
 * simulator's radio-less sim/wifi.js on lin, mac and win).
 */
declare module 'rng' {
  const RNG: {
    /** `count` bytes of the generator. */
    get(count: number): ArrayBuffer;
    /** Re-seeds the generator (no seed: from the platform's `c_rand`). */
    init(seed?: ArrayBuffer): void;
  };
  export default RNG;
}

declare module 'dds/wifi' {
  /** Whether the board has a Wi-Fi radio (false in the simulator). */
  export const radio: boolean;
  /** Opens an access point `ssid` with WPA2 `password`. */
  export function accessPoint(ssid: string, password: string): void;
  /** Joins `ssid` (keeping the access point open when asked); rejects when it cannot. */
  export function join(ssid: string, password: string | undefined, keepAccessPoint?: boolean): Promise<void>;
}
