/*
 * Simulated ECMA-419 `embedded:io/digital` for the Moddable desktop simulator,
 * which has no GPIO (manifest.json maps it for lin, mac and win). An input pin
 * toggles on its own schedule (period 2 s + 250 ms x pin number), so inputs
 * change without a board; an output remembers and traces what is written.
 */
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
  #level = 0;

  constructor(options) {
    const pin = options.pin;
    if (typeof pin !== 'number' || pin < 0 || pin > 63) throw new RangeError(`sim digital: bad pin ${pin}`);
    this.#pin = pin;
    this.#output = options.mode === Digital.Output || options.mode === Digital.OutputOpenDrain;
  }
  read() {
    if (this.#output) return this.#level;
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
