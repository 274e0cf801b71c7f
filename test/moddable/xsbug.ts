/**
 * A minimal xsbug endpoint for tests: the Moddable simulator's XS machines
 * connect to it (XSBUG_HOST/XSBUG_PORT) and it collects their `trace` lines,
 * answers the login, and resumes any break. It also keeps the peak of every
 * instrument the machines sample about once a second (`<instruments>` names,
 * `<samples>` values: "Chunk used", "Slot used", "Stack used"...). Node only.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCharCode(Number(d)))
    .replace(/&amp;/g, '&');
}

export class XsbugLog {
  readonly lines: string[] = [];
  /** Largest sampled value of each instrument, by name (bytes for the heaps and the stack). */
  readonly peaks = new Map<string, number>();
  /** Every sample, by instrument name, in arrival order (about one a second), when `keepSamples` is set. */
  readonly samples: Array<Record<string, number>> = [];
  /** Keep every sample in `samples` (the heap bench reads them), not only the peaks. */
  keepSamples = false;
  private instruments: string[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  /**
   * Awaited before the machine's login is answered: XS waits for that answer before it runs anything
   * (xsDebug.c fxLogin), so a watcher (chunk-watch.ts) can attach before the firmware's first line.
   */
  loginGate: Promise<void> = Promise.resolve();
  /** Called on every trace line and every instrument sample (about once a second). */
  onEvent: () => void = () => undefined;

  constructor() {
    this.server = createServer((socket) => this.attach(socket));
  }

  listen(): Promise<number> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as AddressInfo).port)),
    );
  }

  private attach(socket: Socket): void {
    this.sockets.add(socket);
    let buffer = '';
    let partial = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('data', (data: string) => {
      buffer += data;
      for (let end = buffer.indexOf('</xsbug>'); end >= 0; end = buffer.indexOf('</xsbug>')) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 8);
        if (message.includes('<login'))
          void this.loginGate.then(() => socket.write('\r\n<set-all-breakpoints></set-all-breakpoints>\r\n'));
        const brk = /<break path="([^"]*)" line="(\d+)"[^>]*>([\s\S]*?)<\/break>/.exec(message);
        if (brk !== null) this.lines.push(`# break ${brk[1]}:${brk[2]}: ${unescapeXml(brk[3] ?? '')}`);
        if (message.includes('<break')) socket.write('\r\n<go/>\r\n');
        const names = /<instruments>([\s\S]*?)<\/instruments>/.exec(message);
        if (names !== null) this.instruments = [...(names[1] ?? '').matchAll(/name="([^"]*)"/g)].map((n) => n[1] ?? '');
        for (const m of message.matchAll(/<samples>([^<]*)<\/samples>/g)) {
          const sample: Record<string, number> = {};
          (m[1] ?? '').split(',').forEach((v, i) => {
            const name = this.instruments[i];
            if (name === undefined) return;
            sample[name] = Number(v);
            this.peaks.set(name, Math.max(this.peaks.get(name) ?? 0, Number(v)));
          });
          if (this.keepSamples) this.samples.push(sample);
        }
        for (const m of message.matchAll(/<log([^>]*)>([\s\S]*?)<\/log>/g)) {
          // An exception report names where it was thrown.
          const at = /path="([^"]*)" line="(\d+)"/.exec(m[1] ?? '');
          partial += (at === null ? '' : `${at[1]}:${at[2]}: `) + unescapeXml(m[2] ?? '');
          const parts = partial.split('\n');
          partial = parts.pop() ?? '';
          this.lines.push(...parts);
        }
        this.onEvent();
      }
    });
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
