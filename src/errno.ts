/**
 * POSIX (Linux) error numbers the agent reports, negative as on the wire
 * (decisions.md section 4).
 */
export const Errno = {
  /** Read failed. */
  EIO: -5,
  /** Bus device absent. */
  ENODEV: -19,
  /** Bad desired value or type; illegal address. */
  EINVAL: -22,
  /** Desired value on a read-only channel. */
  EROFS: -30,
  /** Value out of the data type's range. */
  ERANGE: -34,
  /** Unsupported on this target. */
  EOPNOTSUPP: -95,
  /** GNSS fix older than the channel timeout; bus timeout. */
  ETIMEDOUT: -110,
} as const;

export type ErrnoName = keyof typeof Errno;

/** `-110` -> `ETIMEDOUT`; unknown numbers print as `E<n>`. */
export function errnoName(errno: number): string {
  for (const name in Errno) if (Errno[name as ErrnoName] === errno) return name;
  return `E${Math.abs(errno)}`;
}
