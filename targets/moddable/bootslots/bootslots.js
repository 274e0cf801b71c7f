/*
 * bootslots: the ESP32 bootloader's app rollback, for over-the-air updates
 * (docs/ota.md "The native module"). Functions of the native side (bootslots.c,
 * ESP-IDF app_update): the state of the running image, keeping it, returning
 * to the previous one, restarting. Needs CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE
 * (manifest.json sets it); without it every image is "valid" and rollback
 * only restarts.
 */

/** "trial" while the running image waits to be confirmed (ESP_OTA_IMG_PENDING_VERIFY), else "valid". */
export function state() @ "xs_bootslots_state";

/** Keeps the running image: esp_ota_mark_app_valid_cancel_rollback(). */
export function confirm() @ "xs_bootslots_confirm";

/** Marks the running image invalid and restarts into the previous one: esp_ota_mark_app_invalid_rollback_and_reboot(). */
export function rollback() @ "xs_bootslots_rollback";

/** Restarts: esp_restart(). */
export function restart() @ "xs_bootslots_restart";
