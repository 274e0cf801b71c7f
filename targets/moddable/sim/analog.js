/*
 * Simulated ECMA-419 `embedded:io/analog` for the Moddable desktop simulator.
 * Each pin reads a slow sine wave of 12-bit counts (the ESP32 ADC's width),
 * period 60 s + 1 s x pin number, so readings move without a board.
 */
class Analog {
  #pin;

  constructor(options) {
    const pin = options.pin;
    if (typeof pin !== 'number' || pin < 0 || pin > 63) throw new RangeError(`sim analog: bad pin ${pin}`);
    this.#pin = pin;
  }
  get resolution() {
    return 12;
  }
  read() {
    const periodMs = 60000 + 1000 * this.#pin;
    const phase = (Date.now() % periodMs) / periodMs;
    return Math.round(2047.5 + 1800 * Math.sin(2 * Math.PI * phase));
  }
  close() {}
  get format() {
    return 'number';
  }
  set format(value) {
    if (value !== 'number') throw new RangeError('sim analog: format must be number');
  }
}

export default Analog;
