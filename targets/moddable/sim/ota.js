/*
 * Simulated `ota` module (the ESP32 SDK's, build/devices/esp32/modules/ota) for
 * the Moddable simulator on lin (manifest.json maps it), so that an update runs
 * end to end on a desktop. It writes the image to a file and keeps the boot
 * slots' state in a JSON file (docs/ota.md "The simulator's slot file"), both in
 * the `file.root` folder of the manifest's lin config:
 *
 *   ota-slots.json   {"running": 0, "boot": 0, "slots": [{"state": "valid"}, {"state": "empty"}], "restart": false}
 *   ota-slot-<n>.bin the image written to slot n
 *
 * `new OTA({byteLength})` opens the slot that is not running (state "writing"),
 * `write` appends (throws past byteLength), `cancel` leaves it "empty",
 * `complete` checks the length and marks it "trial" and `boot` (the next start
 * runs it). A test harness plays the bootloader: it reads the file, starts the
 * build whose image is in slot `boot`, and writes `running`.
 */
import config from 'mc/config';
import { File } from 'file';

const root = config.file?.root ?? '/tmp/';
export const slotsPath = root + 'ota-slots.json';

export function readSlots() {
  try {
    const file = new File(slotsPath);
    const text = file.read(String);
    file.close();
    const slots = JSON.parse(text);
    if (Array.isArray(slots.slots) && slots.slots.length === 2) return slots;
  } catch {
    // No file yet: a board flashed once, running slot 0.
  }
  return { running: 0, boot: 0, slots: [{ state: 'valid' }, { state: 'empty' }], restart: false };
}

export function writeSlots(slots) {
  if (File.exists(slotsPath)) File.delete(slotsPath);
  const file = new File(slotsPath, true);
  file.write(JSON.stringify(slots));
  file.close();
}

class OTA {
  #slot;
  #file;
  #expected;
  #written = 0;

  constructor(options = {}) {
    const slots = readSlots();
    this.#slot = 1 - slots.running;
    this.#expected = options.byteLength ?? Infinity;
    const path = `${root}ota-slot-${this.#slot}.bin`;
    if (File.exists(path)) File.delete(path);
    this.#file = new File(path, true);
    slots.slots[this.#slot] = { state: 'writing' };
    writeSlots(slots);
  }
  write(data) {
    const bytes = ArrayBuffer.isView(data)
      ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
      : data;
    if (this.#file === undefined) throw new Error('sim ota: closed');
    if (this.#written + bytes.byteLength > this.#expected) throw new Error('sim ota: past byteLength');
    this.#file.write(bytes);
    this.#written += bytes.byteLength;
  }
  cancel() {
    this.#close({ state: 'empty' }, false);
  }
  complete() {
    if (this.#written !== this.#expected && this.#expected !== Infinity) throw new Error('sim ota: incomplete image');
    this.#close({ state: 'trial', bytes: this.#written }, true);
  }
  #close(entry, boot) {
    if (this.#file === undefined) throw new Error('sim ota: closed');
    this.#file.close();
    this.#file = undefined;
    const slots = readSlots();
    slots.slots[this.#slot] = entry;
    if (boot) slots.boot = this.#slot;
    writeSlots(slots);
    trace(`sim ota: slot ${this.#slot} ${entry.state}\n`);
  }
}

export default OTA;
