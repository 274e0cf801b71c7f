/*
 * Simulated ECMA-419 `embedded:io/digital` for the Moddable desktop simulator,
 * which has no GPIO (manifest.json maps it for lin, mac and win). An input pin
 * toggles on its own schedule (period 2 s + 250 ms x pin number), so inputs
 * change without a board; an output remembers and traces what is written.
 *
 * A pulled-up input (`InputPullUp`, the setup button) reads 1, released, unless
 * held at boot (docs/moddable.md): `simHold`
 * "PIN:MS" makes input PIN read 0 (pressed, to ground) for MS milliseconds
 * from the first read of an input (the boot's) and 1 (released) after. It comes from the
 * preference `sim`/`hold` (set in the simulator's modpreferences.json before a
 * launch) or else the config (`mcconfig ... simHold=0:6000`).
 */
import config from 'mc/config';
import Preference from 'preference';
import Time from 'time';

/** [pin, until ticks] of the held button, read once, at the first read of an input (boot). */
let hold;
function held() {
  if (hold === undefined) {
    const m = /^(\d+):(\d+)$/.exec(String(Preference.get('sim', 'hold') ?? config.simHold ?? ''));
    // Ticks count from an origin of the host's choosing: the hold starts at this first read.
    hold = m ? [Number(m[1]), Time.ticks + Number(m[2])] : [-1, 0];
  }
  return hold;
}

class Digital {
  static Input = 0;
  static InputPullUp = 1;
  static InputPullDown = 2;
  static InputPullUpDown = 3;
  static Output = 8;
  static OutputOpenDrain = 9;
  static Rising = 1;
  static Falling = 2;

  #pin;
  #output;
  #pullUp;
  #level = 0;

  constructor(options) {
    const pin = options.pin;
    if (typeof pin !== 'number' || pin < 0 || pin > 63) throw new RangeError(`sim digital: bad pin ${pin}`);
    this.#pin = pin;
    this.#output = options.mode === Digital.Output || options.mode === Digital.OutputOpenDrain;
    this.#pullUp = options.mode === Digital.InputPullUp;
  }
  read() {
    if (this.#output) return this.#level;
    const [pin, until] = held();
    if (this.#pin === pin) return Time.ticks < until ? 0 : 1;
    // A pulled-up input with nothing pressing it (the setup button not held).
    if (this.#pullUp) return 1;
    return Math.floor(Date.now() / (2000 + 250 * this.#pin)) % 2;
  }
  write(value) {
    if (!this.#output) throw new Error(`sim digital: pin ${this.#pin} is an input`);
    this.#level = value ? 1 : 0;
    trace(`sim: digital pin ${this.#pin} = ${this.#level}\n`);
  }
  close() {}
  get format() {
    return 'number';
  }
  set format(value) {
    if (value !== 'number') throw new RangeError('sim digital: format must be number');
  }
}

export default Digital;
