/**
 * Declarations of the Moddable SDK modules the updates feature links, which
 * @moddable/typings does not declare: the ESP32 `ota` module
 * (build/devices/esp32/modules/ota; simulated on lin by sim/ota.js), `crypt`'s
 * Digest, the ECDSA verifier with its curve and point (modules/crypt, linked by
 * the TLS manifest), and our `bootslots` native module (bootslots/; simulated
 * on lin by sim/bootslots.js).
 */
declare module 'ota' {
  export default class OTA {
    constructor(options?: { byteLength?: number });
    write(data: ArrayBuffer | ArrayBufferView): void;
    cancel(): void;
    complete(): void;
  }
}

declare module 'crypt' {
  export class Digest {
    constructor(type: 'SHA256' | 'SHA1' | 'SHA384' | 'SHA512');
    write(data: ArrayBuffer | ArrayBufferView): void;
    close(): ArrayBuffer;
  }
}

declare module 'ecp' {
  export default class ECPoint {
    static fromOctetString(octets: Uint8Array): ECPoint;
  }
}

declare module 'curve' {
  export default class Curve {
    constructor(name: 'secp256r1' | 'secp384r1');
  }
}

declare module 'ecdsa' {
  import type Curve from 'curve';
  import type ECPoint from 'ecp';
  export default class ECDSA {
    constructor(key: ECPoint, curve: Curve, priv?: boolean);
    /** `asn1`: the signature is DER (SEQUENCE of r and s). Throws on a malformed one. */
    verify(digest: ArrayBuffer, signature: ArrayBuffer, asn1: boolean): boolean;
  }
}

declare module 'bootslots' {
  /** 'valid' or 'trial' (ESP-IDF: ESP_OTA_IMG_PENDING_VERIFY). */
  export function state(): string;
  /** esp_ota_mark_app_valid_cancel_rollback */
  export function confirm(): void;
  /** esp_ota_mark_app_invalid_rollback_and_reboot */
  export function rollback(): void;
  /** esp_restart */
  export function restart(): void;
}
