/**
 * The chunked download of an image (docs/ota.md "On the board"): every
 * request is a `Range` of at most `chunkBytes`, so no more than one chunk is in
 * memory at a time and a dropped connection resumes where the image stopped:
 * the next request asks for the next byte. The first `206` answer's
 * `Content-Range` gives the image's length (the image writer is opened with
 * it); every later one must agree on it and on the `ETag`, or the image changed
 * under the download (`ESTALE`). A `200` is taken only at offset 0 for an image
 * that fits one chunk (a server that ignores `Range` would put the whole image
 * in memory: `EPROTO`).
 *
 * Failures: a network error, a timeout, 408, 429 and 5xx are retried after the
 * retry policy's delay (after `Retry-After` plus that delay when given, and a
 * busy service, 503 or 429, is waited out without counting); `maxAttempts`
 * failures in a row end it (`ETIMEDOUT` after network failures, else `EIO`);
 * 404 and 410 are `ENOENT`, 401 and 403 `EACCES`, any other status `EIO`.
 */
import { isAgentError, warn } from '../errors.js';
import type { Clock, HttpResponse, HttpTransport, Logger, TimerHandle } from '../ports.js';
import type { RetryPolicy } from '../retry/backoff.js';

/** The errno names an update can fail with (docs/ota.md lists what each means). */
export type OtaErrno =
  | 'EINVAL'
  | 'EPERM'
  | 'ENOENT'
  | 'EACCES'
  | 'EIO'
  | 'EPROTO'
  | 'EBADMSG'
  | 'EMSGSIZE'
  | 'ESTALE'
  | 'EKEYREJECTED'
  | 'ETIMEDOUT';

export interface DownloadOptions {
  http: HttpTransport;
  clock: Clock;
  retry: RetryPolicy;
  url: string;
  /** Sent with every request (the service's token where the image is on the service). */
  headers: Readonly<Record<string, string>>;
  /** Largest chunk asked for, bytes. */
  chunkBytes: number;
  /** Failures in a row (no byte gained) before the download fails. */
  maxAttempts: number;
  /** The image's length, from the first answer; throws when it cannot be taken (`EMSGSIZE`). */
  begin(totalBytes: number): void;
  /** The bytes at `offset` (in order, each once); throws when they cannot be written (`EIO`). */
  chunk(bytes: Uint8Array, offset: number): void;
  /** After each chunk. */
  progress(receivedBytes: number, totalBytes: number): void;
  /** Each failed request is logged (`ota: download resumes`, with the byte it resumes from). */
  logger: Logger;
}

const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/;

export class ChunkedDownload {
  readonly #o: DownloadOptions;
  #cancelled = false;
  #timer: TimerHandle | undefined;
  #wake: (() => void) | undefined;

  constructor(options: DownloadOptions) {
    this.#o = options;
  }

  /** Stops at the next step (a wait ends at once); `run` then resolves with undefined and `cancelled` is true. */
  cancel(): void {
    this.#cancelled = true;
    this.#o.clock.clearTimer(this.#timer);
    this.#wake?.();
  }

  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Downloads the whole image: undefined when every byte was handed to `chunk`, else why not. */
  async run(): Promise<OtaErrno | undefined> {
    const o = this.#o;
    let offset = 0;
    let total = -1;
    let etag: string | undefined;
    let failures = 0;
    let lastFailure: OtaErrno = 'EIO';
    while (!this.#cancelled && offset !== total) {
      const end = offset + o.chunkBytes - 1;
      let response: HttpResponse;
      try {
        response = await o.http.request({
          method: 'GET',
          url: o.url,
          headers: { ...o.headers, range: `bytes=${offset}-${total < 0 ? end : Math.min(end, total - 1)}` },
          binary: true,
        });
      } catch (e) {
        if (!isAgentError(e)) throw e;
        lastFailure = 'ETIMEDOUT';
        if (++failures >= o.maxAttempts || !(await this.#wait(o.retry.nextDelayMs(failures), offset, e.code))) break;
        continue;
      }
      if (this.#cancelled) break;
      const { status, headers } = response;
      const bytes = response.bytes ?? new Uint8Array(0);
      if (status === 206 || status === 200) {
        const range = contentRange.exec(headers['content-range'] ?? '');
        const first = status === 206 ? Number(range?.[1] ?? -1) : 0;
        const size = status === 206 ? Number(range?.[3] ?? -1) : bytes.length;
        const expected = status === 206 ? Number(range?.[2]) - first + 1 : bytes.length;
        if (first !== offset || size <= 0 || !(expected > 0) || expected > o.chunkBytes) return 'EPROTO';
        if (status === 200 && offset !== 0) return 'EPROTO';
        const tag = headers['etag'];
        if (total < 0) {
          total = size;
          etag = tag;
          if (!call(() => o.begin(total))) return 'EMSGSIZE';
        } else if (size !== total || (tag !== undefined && etag !== undefined && tag !== etag)) return 'ESTALE';
        if (offset + expected > total || bytes.length > expected) return 'EPROTO';
        // A body shorter than its range is a dropped transfer: only whole ranges are written.
        if (bytes.length < expected) {
          lastFailure = 'ETIMEDOUT';
          if (++failures >= o.maxAttempts || !(await this.#wait(o.retry.nextDelayMs(failures), offset, 'cut'))) break;
          continue;
        }
        if (!call(() => o.chunk(bytes, offset))) return 'EIO';
        offset += bytes.length;
        failures = 0;
        o.progress(offset, total);
        continue;
      }
      if (status === 404 || status === 410) return 'ENOENT';
      if (status === 401 || status === 403) return 'EACCES';
      if (status !== 408 && status !== 429 && status < 500) return 'EIO';
      const busy = status === 503 || status === 429;
      const after = Number(headers['retry-after']);
      if (!busy) lastFailure = 'EIO';
      if (!busy && ++failures >= o.maxAttempts) break;
      const delay = o.retry.nextDelayMs(Math.max(failures, 1));
      const wait = delay === null ? null : delay + (after >= 0 ? Math.min(after, 600) * 1000 : 0);
      if (!(await this.#wait(wait, offset, String(status)))) break;
    }
    return this.#cancelled || offset === total ? undefined : lastFailure;
  }

  /** Waits `delayMs` on the clock; false when the policy gave up (null) or the download was cancelled. */
  #wait(delayMs: number | null, offset: number, why: string): Promise<boolean> {
    if (delayMs === null || this.#cancelled) return Promise.resolve(false);
    warn(this.#o.logger, 'ota: download resumes', { from: offset, after: why, inMs: delayMs });
    return new Promise((resolve) => {
      this.#wake = () => resolve(false);
      this.#timer = this.#o.clock.setTimer(() => {
        this.#timer = this.#wake = undefined;
        resolve(!this.#cancelled);
      }, delayMs);
    });
  }
}

/** Runs `f`; false when it threw. */
function call(f: () => void): boolean {
  try {
    f();
    return true;
  } catch {
    return false;
  }
}
