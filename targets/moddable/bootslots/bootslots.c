/*
 * bootslots: the native side of bootslots.js (docs/ota.md "The native module").
 * ESP-IDF's app_update API over the running partition: its OTA image state,
 * confirming it, rolling back, restarting. Each failure throws with the
 * ESP-IDF error name, which the agent logs.
 */
#include "xsmc.h"
#include "xsHost.h"

#include "esp_ota_ops.h"
#include "esp_system.h"
#include "esp_err.h"

static void check(xsMachine *the, esp_err_t err, const char *what)
{
	if (ESP_OK != err)
		xsUnknownError("%s: %s", what, esp_err_to_name(err));
}

void xs_bootslots_state(xsMachine *the)
{
	esp_ota_img_states_t state = ESP_OTA_IMG_VALID;
	const esp_partition_t *running = esp_ota_get_running_partition();

	/* A partition without OTA data (a first flash, the factory app) is valid. */
	if ((NULL == running) || (ESP_OK != esp_ota_get_state_partition(running, &state)))
		state = ESP_OTA_IMG_VALID;
	xsmcSetString(xsResult, (ESP_OTA_IMG_PENDING_VERIFY == state) ? "trial" : "valid");
}

void xs_bootslots_confirm(xsMachine *the)
{
	check(the, esp_ota_mark_app_valid_cancel_rollback(), "confirm");
}

void xs_bootslots_rollback(xsMachine *the)
{
	/* Restarts into the previous image when there is one; returns only on failure. */
	check(the, esp_ota_mark_app_invalid_rollback_and_reboot(), "rollback");
}

void xs_bootslots_restart(xsMachine *the)
{
	esp_restart();
}
