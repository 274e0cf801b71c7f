/**
 * A fake of the Moddable SDK's `securesocket` module. The TLS itself is done by
 * the Node host (the fake socket asks for `tls` with the CA certificate given);
 * what is kept is the SDK class's contract: it takes the `secure` dictionary
 * (`certificate`: DER bytes of the CA; `protocolVersion`), reports connected
 * once the handshake is done, catches what fails inside its own callback, and
 * then calls back -2 (error) and closes, outside that guard: a throw from the
 * module above reaches the machine.
 */
import { Socket } from './fake-socket.js';

type Callback = (message: number, value?: unknown) => unknown;

function toLatin1(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return text;
}

export default class SecureSocket {
  declare callback: Callback | undefined;
  private sock: Socket | undefined;
  private closing: number | boolean = false;

  constructor(dictionary: Record<string, unknown>) {
    const secure = (dictionary.secure ?? {}) as Record<string, unknown>;
    const certificate = secure.certificate;
    if (certificate !== undefined && !(certificate instanceof ArrayBuffer)) throw new Error('invalid certificate');
    const tls = {
      servername: String(dictionary.host ?? ''),
      ...(certificate instanceof ArrayBuffer ? { caDer: toLatin1(new Uint8Array(certificate)) } : {}),
    };
    const sock = new Socket({ ...dictionary, tls });
    this.sock = sock;
    sock.callback = (message: number, value?: unknown) => {
      if (this.closing !== false) return;
      try {
        if (message === Socket.connected) this.callback?.(1);
        else if (message === Socket.readable) this.callback?.(2, value);
        else if (message === Socket.writable) {
          if (Number(value) > 128) this.callback?.(3, Number(value) - 128);
        } else this.closing = message;
      } catch {
        this.closing = Socket.error;
      }
      if (this.closing !== false) {
        this.callback?.(Number(this.closing));
        this.close();
      }
    };
  }

  read(type?: unknown, until?: unknown): unknown {
    return this.sock?.read(type, until);
  }

  write(...items: unknown[]): unknown {
    if (this.sock === undefined) throw new Error('write on closed socket');
    const result = this.sock.write(...items);
    return items.length === 0 ? Math.max(0, Number(result) - 128) : result;
  }

  close(): void {
    this.closing = true;
    const sock = this.sock;
    this.sock = undefined;
    try {
      sock?.close();
    } catch {
      // SecureSocket.close tolerates a socket closed underneath.
    }
  }
}
