/**
 * The ECMA-419 IO classes the adapters use: the `embedded:io/*` modules of the
 * manifest. On an ESP32 the board's host provider (`device.io`) holds these same
 * modules; in the desktop simulator the manifest maps them to the simulated ones
 * of targets/moddable/sim/.
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
export const boardIo = (): IoClasses => ({ Digital, Analog, PWM, Serial });
