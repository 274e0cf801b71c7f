/**
 * The firmware bundle's entry on XS (test/xs/firmware.mjs bundles it with
 * targets/moddable/main.ts and the fake host modules): gives the machine what
 * Moddable's XS has and xsnap lacks (`ArrayBuffer.fromString`,
 * `String.fromArrayBuffer`, `trace` to the host, a `Date.now` on the board's
 * clock), removes xsnap's extras, freezes the built-ins as the ROM does, and
 * exposes `__fw` for the host: boot, deliver, step, and single adapter calls.
 */
import { ModdableClock } from '../../../targets/moddable/clock.js';
import type { HttpTransport } from '../../../src/ports.js';
import { moddableHttp } from '../../../targets/moddable/http.js';
import main from '../../../targets/moddable/main.js';
import mainPins from '../../../targets/moddable/main-pins.js';
import mainSetup from '../../../targets/moddable/main-setup.js';
import { moddableWebSockets } from '../../../targets/moddable/websocket.js';
import type { ReusableTimer } from '../../../src/ports.js';
import { command, decoder, deliver, encoder, fromLatin1, step, time, timerCounts, type NetEvent } from './bridge.js';
import { Request } from './fake-http.js';
import { config, flash } from './fake-host.js';
import { platform, type Flavor } from './fake-socket.js';

interface BootOptions {
  flavor: Flavor;
  wallMs: number;
  config: Record<string, unknown>;
  /** Preferences kept from an earlier run: name -> { value } or { buffer } (latin1). */
  flash: Record<string, { value?: unknown; buffer?: string }>;
  capacity: number;
  /** The composition root: main.ts (every feature), main-pins.ts (no GNSS, no Modbus) or main-setup.ts (setup mode). */
  firmware: 'full' | 'pins' | 'setup';
}

const g = globalThis as unknown as Record<string, unknown>;
let rearmed: ReusableTimer | undefined;
/** The HTTP transports of `__fw.request`, by CA. */
const transports = new Map<string, HttpTransport>();
const harden = g.harden as (value: unknown) => void;

function install(): void {
  const AB = ArrayBuffer as unknown as Record<string, unknown>;
  AB.fromString = (text: string): ArrayBuffer => encoder.encode(text).slice().buffer;
  (String as unknown as Record<string, unknown>).fromArrayBuffer = (
    buffer: ArrayBuffer,
    offset?: number,
    length?: number,
  ): string => decoder.decode(new Uint8Array(buffer, offset, length));
  Object.defineProperty(Date, 'now', { value: () => time.wallBaseMs + time.nowMs, writable: false });
  g.trace = (text: unknown): void => {
    command({ t: 'log', line: String(text) });
  };
  for (const name of ['print', 'issueCommand', 'setImmediate', 'performance', 'TextEncoder', 'TextDecoder', 'Base64']) {
    delete g[name];
  }
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    const value = g[name];
    if (/^[A-Z]/.test(name) && (typeof value === 'function' || (typeof value === 'object' && value !== null))) {
      harden(value);
    }
  }
}

/** Reports the outcome of one adapter call to the host. */
function report(tag: string, outcome: Record<string, unknown>): void {
  command({ t: 'result', tag, ...outcome });
}

g.__fw = {
  boot(options: BootOptions): void {
    platform.flavor = options.flavor;
    time.wallBaseMs = options.wallMs;
    Object.assign(config, options.config);
    flash.capacity = options.capacity;
    for (const name in options.flash) {
      const entry = options.flash[name];
      if (entry === undefined) continue;
      flash.entries.set(name, entry.buffer !== undefined ? fromLatin1(entry.buffer).buffer : entry.value);
    }
    install();
    if (options.firmware === 'pins') mainPins();
    else if (options.firmware === 'setup') mainSetup();
    else main();
  },
  /** Like boot, without starting the agent: for single adapter calls. */
  prepare(options: BootOptions): void {
    platform.flavor = options.flavor;
    time.wallBaseMs = options.wallMs;
    install();
  },
  deliver(events: NetEvent[]): void {
    deliver(events);
  },
  step(ms: number): void {
    step(ms);
    command({ t: 'now', nowMs: time.nowMs });
  },
  /**
   * The board clock's reusable timer on the fake `timer` module: armed with the
   * first of `delaysMs`, re-armed from its own callback with each next one (as
   * the scheduler does), then left; reports every firing and the SDK timers made.
   */
  reusableTimer(tag: string, delaysMs: number[]): void {
    const made = timerCounts.made;
    const fired: number[] = [];
    let next = 1;
    const timer = new ModdableClock().timer(() => {
      fired.push(time.nowMs);
      if (next < delaysMs.length) timer.schedule(delaysMs[next++]!);
      report(tag, { fired: fired.slice(), made: timerCounts.made - made });
    });
    timer.schedule(delaysMs[0]!);
  },
  /** Arms one reusable timer `count` times, then disarms it: the host reads the slot meter around it. */
  rearm(count: number): void {
    rearmed ??= new ModdableClock().timer(() => undefined);
    for (let i = 0; i < count; i++) rearmed.schedule(1000 + i);
    rearmed.unschedule();
  },
  /**
   * One request through the firmware's HTTP adapter: one transport per CA (kept, so that its connection is
   * kept alive between calls, as the firmware's one transport is). `binary` asks for the body as bytes.
   */
  request(tag: string, url: string, method: string, body?: string, caDer?: string, binary?: boolean): void {
    const key = caDer ?? '';
    let http = transports.get(key);
    if (http === undefined) {
      // https: the `secure` dictionary of boot.ts, with the CA as DER bytes (a Resource on a board).
      const secure: Record<string, unknown> = { protocolVersion: 0x303, tls_max_fragment_length: 2048 };
      if (caDer !== undefined) secure.certificate = fromLatin1(caDer).buffer;
      http = moddableHttp(new ModdableClock(), 10_000, secure);
      transports.set(key, http);
    }
    const req = { url, method: method as 'GET', headers: {}, ...(body === undefined ? {} : { body }) };
    http.request(binary === true ? { ...req, binary } : req).then(
      (r) =>
        report(tag, {
          status: r.status,
          body: r.body,
          headers: r.headers,
          ...(r.bytes === undefined ? {} : { bytes: Array.from(r.bytes) }),
        }),
      (e: unknown) => report(tag, { code: (e as { code?: string }).code, error: String((e as Error).message) }),
    );
  },
  /** One request through the fake `http` module alone, as firmware without the guard would make it. */
  rawRequest(tag: string, host: string, port: number): void {
    const request = new Request({ host, port, path: '/', response: String });
    request.callback = (message: number, value: unknown) => {
      if (message === Request.responseComplete || message === Request.error) report(tag, { message, value });
    };
  },
  /** A WebSocket through the firmware's adapter: reports open, messages, close; sends `send` once open. */
  webSocket(tag: string, url: string, send: string): void {
    const sockets = moddableWebSockets({ protocolVersion: 0x303, tls_max_fragment_length: 2048 });
    let sent = false;
    try {
      const connection = sockets.connect(
        url,
        {},
        {
          onOpen: () => {
            report(tag, { event: 'open' });
            if (!sent) {
              sent = true;
              try {
                connection.send(send);
              } catch (e) {
                report(tag, { event: 'send-failed', code: (e as { code?: string }).code });
              }
            }
          },
          onMessage: (text) => report(tag, { event: 'message', text }),
          onClose: (reason) => report(tag, { event: 'close', reason }),
        },
      );
    } catch (e) {
      report(tag, { event: 'throw', code: (e as { code?: string }).code });
    }
  },
};
