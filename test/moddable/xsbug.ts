/**
 * A minimal xsbug endpoint for tests: the Moddable simulator's XS machines
 * connect to it (XSBUG_HOST/XSBUG_PORT) and it collects their `trace` lines,
 * answers the login, and resumes any break. Node only.
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
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
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
        if (message.includes('<login')) socket.write('\r\n<set-all-breakpoints></set-all-breakpoints>\r\n');
        if (message.includes('<break')) socket.write('\r\n<go/>\r\n');
        for (const m of message.matchAll(/<log[^>]*>([\s\S]*?)<\/log>/g)) {
          partial += unescapeXml(m[1] ?? '');
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
