/**
 * The folder of firmware images the service serves (`--firmware DIR`,
 * decisions 12): a name resolves to a regular file directly inside the folder
 * or to nothing. Names are one path segment of letters, digits, `.`, `_` and
 * `-` that does not start with a dot, so `..`, `a/b` and hidden files never
 * resolve; the file's real path (symbolic links followed) must lie in the
 * folder's real path, so a link pointing out of it resolves to nothing too.
 * An image's SHA-256 is computed once per (size, mtime) and kept; it is the
 * image's ETag. A signature stored beside an image as `NAME.sig` (the base64
 * text that `npm run firmware -- sign` prints as `fw-sig`) is listed with it.
 */
import { createHash } from 'node:crypto';
import { createReadStream, realpathSync, statSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { ServiceError } from '../errors.js';

/** One path segment, not hidden (docs/service.md, "Firmware images"). */
export const imageNamePattern = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

export interface ImageFile {
  name: string;
  path: string;
  size: number;
  mtimeMs: number;
}

export interface ListedImage {
  name: string;
  size: number;
  sha256: string;
  /** The base64 signature from `NAME.sig` beside the image, when there is one. */
  sig?: string;
}

export class FirmwareFolder {
  private readonly root: string;
  private readonly digests = new Map<string, { size: number; mtimeMs: number; sha256: string }>();

  /** Throws ServiceError `config` when `dir` is not a readable folder (the service does not start). */
  constructor(dir: string) {
    try {
      this.root = realpathSync(dir);
      if (!statSync(this.root).isDirectory()) throw new Error('not a folder');
    } catch (e) {
      throw new ServiceError('config', `--firmware ${dir}: ${(e as Error).message}`);
    }
  }

  /** The regular file `name` inside the folder, or undefined (never a path outside it). */
  resolve(name: string): ImageFile | undefined {
    if (!imageNamePattern.test(name)) return undefined;
    try {
      const path = realpathSync(join(this.root, name));
      if (!path.startsWith(this.root + sep)) return undefined;
      const st = statSync(path);
      if (!st.isFile()) return undefined;
      return { name, path, size: st.size, mtimeMs: st.mtimeMs };
    } catch {
      return undefined;
    }
  }

  /** The SHA-256 (hex) of an image, computed once per size and modification time. */
  async sha256(file: ImageFile): Promise<string> {
    const kept = this.digests.get(file.path);
    if (kept !== undefined && kept.size === file.size && kept.mtimeMs === file.mtimeMs) return kept.sha256;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file.path)) hash.update(chunk as Buffer);
    const sha256 = hash.digest('hex');
    this.digests.set(file.path, { size: file.size, mtimeMs: file.mtimeMs, sha256 });
    return sha256;
  }

  /** Every image in the folder (not the `.sig` files), by name, with its SHA-256 and stored signature. */
  async list(): Promise<ListedImage[]> {
    const out: ListedImage[] = [];
    for (const name of readdirSync(this.root).sort()) {
      if (name.endsWith('.sig')) continue;
      const file = this.resolve(name);
      if (file === undefined) continue;
      const image: ListedImage = { name, size: file.size, sha256: await this.sha256(file) };
      const sig = this.signature(name);
      if (sig !== undefined) image.sig = sig;
      out.push(image);
    }
    return out;
  }

  /** The base64 text of `NAME.sig`, trimmed, when it exists and is base64. */
  private signature(name: string): string | undefined {
    const file = this.resolve(`${name}.sig`);
    if (file === undefined || file.size > 1024) return undefined;
    const text = readFileSync(file.path, 'utf8').trim();
    return /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? text : undefined;
  }
}
