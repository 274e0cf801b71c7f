// The Node side of the firmware-on-XS run: runs the firmware bundle
// (firmware-bundle.mjs) in an XS worker (@agoric/xsnap), and carries its
// sockets over real TCP (or TLS) connections from this process: the worker asks through issueCommand (connect, write,
// close), events come back through `__fw.deliver`.
//
// Time on the worker is virtual and driven from here: `__fw.step` runs one due
// timer at a time, so promise jobs run between timers as on a device. Virtual
// time never runs ahead while a connection is being opened or an HTTP answer is
// awaited (real I/O decides), and otherwise at most `speed` times real time, so
// that the local service's own (real) timers keep their meaning.
import { randomBytes } from 'node:crypto';
import { createServer, isIP, connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { firmwareScript } from './firmware-bundle.mjs';
import { startXs } from './xsnap.mjs';

export { firmwareScript, linConfig } from './firmware-bundle.mjs';

const latin1 = (buffer) => Buffer.from(buffer).toString('latin1');

/**
 * One firmware run on XS.
 * @param {object} options
 * @param {'lin'|'esp32'} options.flavor failure modes of the fake socket
 * @param {{ wallMs: number }} options.clock the wall clock shared with the service (this run moves it)
 * @param {Map<string, object>} [options.flash] preferences kept from an earlier run (changed in place)
 * @param {number} [options.speed] most virtual ms per real ms
 * @param {'full'|'pins'} [options.firmware] the composition root: main.ts or main-pins.ts
 */
/** The live heap of an xsnap worker with nothing loaded: the baseline to subtract. */
export async function emptyHeap() {
  const worker = await startXs({ name: 'firmware-xs-baseline' });
  try {
    const { meterUsage } = await worker.evaluate('gc()');
    let bytes = 0;
    for await (const chunk of worker.makeSnapshotStream('baseline')) bytes += chunk.byteLength;
    return { slots: meterUsage.currentHeapCount, snapshotBytes: bytes };
  } finally {
    await worker.close().catch(() => undefined);
  }
}

export class FirmwareRun {
  constructor({ flavor, clock, flash = new Map(), speed = 20, capacity = 24 * 1024, firmware = 'full' }) {
    Object.assign(this, { flavor, clock, flash, speed, capacity, firmware });
    this.nowMs = 0;
    this.logs = [];
    this.results = [];
    this.flashWrites = { count: 0, bytes: 0, deletes: 0 };
    this.aborted = undefined;
    this.sockets = new Map();
    /** Every connection the firmware opened: port, whether TLS, virtual time. */
    this.connects = [];
    this.queue = [];
    this.wake = undefined;
    /** Listeners the firmware opened: the port it asked for -> { server, port: the real one (port 0) }. */
    this.listeners = new Map();
    this.acceptedIds = 1_000_000;
  }

  /** The real port of the firmware's listener for `port`, once listening (undefined before). */
  listenerPort(port) {
    return this.listeners.get(port)?.port;
  }

  listen(port) {
    const entry = { server: undefined, port: undefined };
    entry.server = createServer((socket) => {
      const id = this.acceptedIds++;
      // An accepted connection never holds virtual time back (the firmware's own requests do).
      const s = { socket, state: 'open', upgraded: true, openedAt: performance.now() };
      this.sockets.set(id, s);
      this.push({ id, e: 'accept', port });
      socket.on('data', (data) => this.push({ id, e: 'data', data: latin1(data) }));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (s.state === 'ended') return;
        s.state = 'ended';
        this.push({ id, e: 'end' });
      });
    });
    entry.server.listen(0, '127.0.0.1', () => (entry.port = entry.server.address().port));
    this.listeners.set(port, entry);
  }

  async start(prepareOnly = false, config = {}) {
    this.wallBaseMs = this.clock.wallMs;
    // Rollup first: starting xsnap locks this process down (SES), which rollup does not survive.
    const code = await firmwareScript();
    this.worker = await startXs({ name: 'firmware-xs', handleCommand: (bytes) => this.command(bytes) });
    await this.worker.evaluate(code);
    this.realStart = performance.now();
    const boot = {
      flavor: this.flavor,
      wallMs: this.wallBaseMs,
      config,
      flash: Object.fromEntries(this.flash),
      capacity: this.capacity,
      firmware: this.firmware,
    };
    await this.evaluate(`__fw.${prepareOnly ? 'prepare' : 'boot'}(${JSON.stringify(boot)})`);
  }

  async evaluate(code) {
    if (this.aborted !== undefined) throw new Error(`XS aborted earlier: ${this.aborted}`);
    try {
      await this.worker.evaluate(code);
    } catch (e) {
      this.aborted = e instanceof Error ? e.message : String(e);
      throw new Error(`XS abort: unhandled exception: ${this.aborted}`);
    }
  }

  async command(bytes) {
    const message = JSON.parse(new TextDecoder().decode(bytes));
    switch (message.t) {
      case 'connect':
        this.connect(message);
        break;
      case 'write': {
        const s = this.sockets.get(message.id);
        s?.socket.write(Buffer.from(message.data, 'latin1'), () => this.push({ id: message.id, e: 'sent' }));
        if (s !== undefined) s.writtenAt = performance.now();
        break;
      }
      case 'close': {
        const s = this.sockets.get(message.id);
        this.sockets.delete(message.id);
        // An accepted connection ends as a server's does: what was written is sent, then FIN.
        if (s?.upgraded && message.id >= 1_000_000) s.socket.end();
        else s?.socket.destroy();
        break;
      }
      case 'listen':
        this.listen(message.port);
        break;
      case 'unlisten': {
        this.listeners.get(message.port)?.server.close();
        this.listeners.delete(message.port);
        break;
      }
      case 'random':
        this.randomCount = (this.randomCount ?? 0) + message.count;
        return new TextEncoder().encode(JSON.stringify({ bytes: latin1(randomBytes(message.count)) }));
      case 'log':
        this.logs.push(message.line.replace(/\n$/, ''));
        if (process.env.FIRMWARE_LOG) process.stdout.write(`      xs| ${message.line}`);
        break;
      case 'pref.set':
        this.flash.set(
          `${message.domain}\u0000${message.key}`,
          message.buffer !== undefined ? { buffer: message.buffer } : { value: message.value },
        );
        this.flashWrites.count++;
        this.flashWrites.bytes += message.bytes;
        break;
      case 'pref.delete':
        this.flash.delete(`${message.domain}\u0000${message.key}`);
        this.flashWrites.deletes++;
        break;
      case 'now':
        this.nowMs = message.nowMs;
        this.clock.wallMs = this.wallBaseMs + message.nowMs;
        break;
      case 'result':
        this.results.push(message);
        break;
      case 'time.set':
        break;
      default:
        throw new Error(`firmware-xs: unknown command ${message.t}`);
    }
    return new Uint8Array(0);
  }

  connect({ id, host, port, tls }) {
    this.connects.push({ port, tls: tls !== undefined, nowMs: this.nowMs });
    const socket =
      tls === undefined
        ? tcpConnect({ host, port })
        : tlsConnect({
            host,
            port,
            // SNI carries names only (RFC 6066); an IP address is checked against the certificate's IP SANs.
            ...(isIP(tls.servername) === 0 ? { servername: tls.servername } : {}),
            ...(tls.caDer === undefined
              ? {}
              : {
                  ca: `-----BEGIN CERTIFICATE-----\n${Buffer.from(tls.caDer, 'latin1').toString('base64')}\n-----END CERTIFICATE-----\n`,
                }),
          });
    const entry = { socket, state: 'connecting', upgraded: false, openedAt: performance.now() };
    this.sockets.set(id, entry);
    socket.on(tls === undefined ? 'connect' : 'secureConnect', () => {
      entry.state = 'open';
      this.push({ id, e: 'connected' });
    });
    socket.on('data', (data) => {
      entry.answeredAt = performance.now();
      if (!entry.upgraded && entry.state === 'open' && data.subarray(0, 12).toString('latin1') === 'HTTP/1.1 101')
        entry.upgraded = true;
      this.push({ id, e: 'data', data: latin1(data) });
    });
    socket.on('error', (error) => {
      if (entry.state === 'ended') return;
      entry.state = 'ended';
      this.push({ id, e: 'error', reason: error.code ?? error.message });
    });
    socket.on('close', () => {
      if (entry.state === 'ended') return;
      entry.state = 'ended';
      this.push({ id, e: 'end' });
    });
  }

  push(event) {
    this.queue.push(event);
    this.wake?.();
  }

  /** Whether real I/O is awaited: a connection being opened, or the answer to a write (for 5 s real at most). */
  awaiting() {
    const now = performance.now();
    for (const s of this.sockets.values()) {
      if (s.state === 'ended' || s.upgraded) continue;
      // Opening, or a request written and no byte of its answer yet (a kept-alive connection).
      if (s.state === 'connecting' && now - s.openedAt < 5_000) return true;
      if (s.writtenAt > (s.answeredAt ?? 0) && now - s.writtenAt < 5_000) return true;
    }
    return false;
  }

  waitEvent(ms) {
    return new Promise((done) => {
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        done();
      }
      this.wake = finish;
    }).finally(() => (this.wake = undefined));
  }

  /** One turn: deliver the network's events, or advance virtual time by one step. */
  async tick() {
    if (this.queue.length > 0) {
      const events = this.queue.splice(0);
      await this.evaluate(`__fw.deliver(${JSON.stringify(events)})`);
      return;
    }
    const allowedMs = (performance.now() - this.realStart) * this.speed;
    if (this.awaiting() || this.nowMs >= allowedMs) {
      await this.waitEvent(this.awaiting() ? 20 : Math.max(1, (this.nowMs - allowedMs) / this.speed));
      return;
    }
    await this.evaluate(`__fw.step(${Math.min(100, Math.max(1, Math.floor(allowedMs - this.nowMs)))})`);
  }

  /** Runs until `condition()` (checked every `everyMs` virtual ms) holds; false after `limitMs` virtual ms. */
  async until(condition, limitMs, everyMs = 250) {
    const deadline = this.nowMs + limitMs;
    let checkAt = this.nowMs;
    for (;;) {
      if (this.nowMs >= checkAt) {
        if (await condition()) return true;
        checkAt = this.nowMs + everyMs;
      }
      if (this.nowMs >= deadline) return false;
      await this.tick();
    }
  }

  /** Runs for `ms` virtual milliseconds. */
  async runFor(ms) {
    await this.until(() => false, ms, ms + 1);
  }

  /** Live heap after a full GC: slots, and bytes as the size of an xsnap snapshot (slots and chunks). */
  async liveHeap() {
    const { meterUsage } = await this.worker.evaluate('gc()');
    let bytes = 0;
    for await (const chunk of this.worker.makeSnapshotStream('live-heap')) bytes += chunk.byteLength;
    return { slots: meterUsage.currentHeapCount, snapshotBytes: bytes };
  }

  async stop() {
    for (const s of this.sockets.values()) s.socket.destroy();
    this.sockets.clear();
    for (const l of this.listeners.values()) l.server.close();
    this.listeners.clear();
    await this.worker?.close().catch(() => undefined);
  }
}
