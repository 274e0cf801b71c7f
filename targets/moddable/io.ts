/**
 * The ECMA-419 IO classes the adapters use. The board's host provider
 * (`globalThis.device.io`, ECMA-419 section 20) is preferred where the firmware
 * has one; otherwise the `embedded:io/*` modules of the manifest. In the desktop
 * simulator those modules are the simulated ones of targets/moddable/sim/.
 */
import Analog from 'embedded:io/analog';
import Digital from 'embedded:io/digital';
import PWM from 'embedded:io/pwm';
import Serial from 'embedded:io/serial';

export type { SerialPins } from './config.js';

export interface IoClasses {
  Digital: typeof Digital;
  Analog: typeof Analog;
  PWM: typeof PWM;
  Serial: typeof Serial;
}

/** The IO classes of this board. */
export function boardIo(): IoClasses {
  const provided = (globalThis as { device?: { io?: Partial<IoClasses> } }).device?.io;
  return {
    Digital: provided?.Digital ?? Digital,
    Analog: provided?.Analog ?? Analog,
    PWM: provided?.PWM ?? PWM,
    Serial: provided?.Serial ?? Serial,
  };
}
