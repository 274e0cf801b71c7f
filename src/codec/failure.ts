/**
 * The failed result of decoding or encoding a bus value: a negative POSIX error
 * number (decisions.md section 4). The instances are shared constants, so a
 * failing decode allocates nothing.
 */
import { Errno } from '../errno.js';

export class CodecFailure {
  constructor(
    /** Negative POSIX error number, e.g. -34 (ERANGE). */
    readonly errno: number,
    /** Why, for logs. */
    readonly reason: string,
  ) {}
}

/** A value outside its data type's range, or a float that is not finite. */
export const OUT_OF_RANGE = new CodecFailure(Errno.ERANGE, 'value out of the data type range');
/** A desired value of the wrong JSON type for the channel (e.g. a string for uint16). */
export const WRONG_TYPE = new CodecFailure(Errno.EINVAL, 'value of the wrong type');
/** The field does not fit the data that arrived (a short CAN frame). */
export const SHORT_DATA = new CodecFailure(Errno.EIO, 'data window shorter than dataOffset + dataSize');
/** J1939: the sender marks the parameter "not available" (all ones). */
export const NOT_AVAILABLE = new CodecFailure(Errno.EOPNOTSUPP, 'J1939 parameter not available');
/** J1939: the sender marks the parameter as in error. */
export const ERROR_INDICATOR = new CodecFailure(Errno.EIO, 'J1939 error indicator');

/** Narrowing helper. */
export function isFailure(x: unknown): x is CodecFailure {
  return x instanceof CodecFailure;
}
