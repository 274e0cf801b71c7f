/*
 * Simulated `bootslots` (our ESP32 app-rollback module, ../bootslots/) for the
 * Moddable simulator on lin, over the slot file of the simulated `ota` (sim/ota.js;
 * docs/ota.md "The simulator's slot file"). The simulator cannot restart itself:
 * `restart` and `rollback` set `"restart": true` in the file and trace
 * `sim bootslots: restart`, and the test harness, playing the bootloader, stops
 * the process and starts the build of slot `boot`.
 *
 * - state(): "trial" while the running slot is on trial, else "valid";
 * - confirm(): the running slot becomes "valid";
 * - rollback(): the running slot becomes "invalid", `boot` the other one, restart;
 * - restart(): restart (into `boot`).
 */
import { readSlots, writeSlots } from 'ota';

export function state() {
  const slots = readSlots();
  return slots.slots[slots.running]?.state === 'trial' ? 'trial' : 'valid';
}

export function confirm() {
  const slots = readSlots();
  slots.slots[slots.running] = { ...slots.slots[slots.running], state: 'valid' };
  writeSlots(slots);
  trace('sim bootslots: confirmed\n');
}

export function rollback() {
  const slots = readSlots();
  slots.slots[slots.running] = { ...slots.slots[slots.running], state: 'invalid' };
  slots.boot = 1 - slots.running;
  writeSlots(slots);
  restart();
}

export function restart() {
  const slots = readSlots();
  slots.restart = true;
  writeSlots(slots);
  trace('sim bootslots: restart\n');
}
