/*
 * Simulated ECMA-419 `embedded:io/pwm` for the Moddable desktop simulator:
 * 10-bit duty, remembered and traced on every write.
 */
class PWM {
  #pin;
  #hz;

  constructor(options) {
    const pin = options.pin;
    if (typeof pin !== 'number' || pin < 0 || pin > 63) throw new RangeError(`sim pwm: bad pin ${pin}`);
    this.#pin = pin;
    this.#hz = options.hz ?? 1000;
  }
  get resolution() {
    return 10;
  }
  get hz() {
    return this.#hz;
  }
  write(value) {
    if (!(value >= 0 && value <= 1023)) throw new RangeError(`sim pwm: duty ${value} out of range`);
    trace(`sim: pwm pin ${this.#pin} duty ${value}/1023\n`);
  }
  close() {}
  get format() {
    return 'number';
  }
  set format(value) {
    if (value !== 'number') throw new RangeError('sim pwm: format must be number');
  }
}

export default PWM;
