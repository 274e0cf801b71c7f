/**
 * The chunk heap of a running mcsim at ESP32 sizes (docs/moddable.md, "Heap on
 * an ESP32"): gdb attached to the simulator runs esp32-chunks.py, which after
 * each compacting collection counts the live chunks and keeps the largest
 * bound of what the board's chunk heap needs at that moment (live bytes less
 * 8 B per chunk: the 64-bit header is 16 B, the ESP32's 8 B; plus the chunk
 * asked for), and what is live and free when each handshake starts (a
 * collection forced as its socket connects). Needs gdb and the permission to
 * attach (same user). Node only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { onPath, root } from './mcsim.js';

/** What the watch saw: collections, the most live chunks, and the chunk heap's largest need (B). */
export interface ChunkWatch {
  collections: number;
  maxChunks: number;
  /** Live chunk bytes after a collection, at the simulator's 64-bit size. */
  maxSimLive: number;
  /**
   * The ESP32 bound: live bytes less 8 B per chunk and less half the content of chunks of slots or
   * pointers (arrays, saved stacks, Map and Set tables), plus the chunk asked for at its ESP32 size at most.
   */
  maxEsp32Need: number;
  /**
   * At the largest need: live chunks, the chunk asked for, the built-ins under it (`where`, innermost first), live
   * slots, bytes by the kind of slot holding each chunk (CODE: byte code copied for a function made at run time)
   * and the largest chunks (64-bit sizes).
   */
  atPeak: {
    chunks: number;
    simLive: number;
    halved: number;
    request: number;
    where?: string[];
    liveSlots?: number;
    byKind?: Record<string, number>;
    largest?: Array<[number, string]>;
  } | null;
  /** Where XS aborted (fxAbort), if it did: the built-ins under it and the live and total slots. */
  abort?: { where: string[]; liveSlots: number; heapSlots: number };
  /**
   * One entry per socket connected (every socket of these runs is a TLS connection whose handshake starts),
   * after a compacting collection forced there: live chunks (count, bytes at 64-bit sizes), live and
   * total slots, the stack's free slots. Empty when XS skipped that collection.
   */
  handshakes: Array<Partial<HandshakeStart>>;
}

/** What was live when a handshake started. */
export interface HandshakeStart {
  chunks: number;
  simLive: number;
  /** Of `simLive`, what the board saves on chunks of slots or pointers (half their content). */
  halved: number;
  liveSlots: number;
  heapSlots: number;
  stackFreeSlots: number;
}

export function hasGdb(): boolean {
  return onPath('gdb');
}

/** gdb attached to mcsim's `pid`; `watching` resolves once its breakpoint is set. */
export class ChunkWatcher {
  private readonly gdb: ChildProcess;
  readonly watching: Promise<void>;

  constructor(
    pid: number,
    private readonly out: string,
  ) {
    const script = join(root, 'test', 'moddable', 'esp32-chunks.py');
    const gdb = ['gdb', '-p', String(pid), '-batch', '-ex', 'handle all nostop noprint pass', '-x', script];
    // No core file if gdb fails as the simulator ends (it has, once); it runs in the scratch folder regardless.
    this.gdb = spawn('sh', ['-c', 'ulimit -c 0; exec "$@"', 'sh', ...gdb, '-ex', 'continue', '-ex', 'detach'], {
      cwd: dirname(out),
      env: { ...process.env, ESP32_CHUNKS_OUT: out },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    this.watching = new Promise((resolve, reject) => {
      const hear = (d: Buffer): void => {
        said += d.toString();
        if (said.includes('esp32-chunks: watching')) resolve();
      };
      this.gdb.stdout!.on('data', hear);
      this.gdb.stderr!.on('data', hear);
      this.gdb.once('exit', (code) => reject(new Error(`gdb ended (${code}) before watching:\n${said.slice(-2000)}`)));
    });
  }

  /** The figures so far (the script rewrites them after each collection). */
  result(): ChunkWatch {
    if (!existsSync(this.out)) throw new Error('chunk watch: no figures written');
    return JSON.parse(readFileSync(this.out, 'utf8')) as ChunkWatch;
  }

  /**
   * Detaches gdb before the simulator is stopped (a SIGINT stops the machine, `continue` returns and the
   * script's `detach` lets it run on); waits up to 10 s for gdb to end, then ends it (by its PID).
   */
  async stop(): Promise<void> {
    const gdb = this.gdb;
    if (gdb.exitCode !== null || gdb.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        gdb.kill('SIGKILL');
        resolve();
      }, 10_000);
      gdb.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    gdb.kill('SIGINT');
    await gone;
  }
}
