/*
 * The heap bench's `preference` for the desktop simulator (bench/heap-sim.ts
 * maps it for lin; the other simulator runs keep the SDK's): values kept as the
 * ESP32's NVS keeps them, so that the simulator's heap is a board's. The SDK's
 * lin module keeps every domain in one JSON file and a blob (ArrayBuffer) as the
 * decimal text of its bytes, split into one string per byte when read and
 * joined from them when written: a 2 KB blob costs over 4,000 live slots for a
 * moment, which a board (native NVS, the bytes never become JavaScript values)
 * never pays. Here every value is a file of its own under `config.file.root`,
 * named `<domain>~<key>`: a type tag byte (b boolean, i integer, s string,
 * a ArrayBuffer), then the value's bytes. Read at each call, so a preference
 * written before the boot is seen (the SDK's lin module reads its file once,
 * at preload: at build time when the firmware is preloaded).
 */
import { File, Iterator } from 'file';
import config from 'mc/config';

const root = config.file.root;
const SEPARATOR = '~';

function path(domain, key) {
  if (
    typeof domain !== 'string' ||
    typeof key !== 'string' ||
    !domain ||
    !key ||
    (domain + key).includes(SEPARATOR) ||
    (domain + key).includes('/')
  )
    throw new Error(`preference: invalid domain or key`);
  return root + domain + SEPARATOR + key;
}

export default class Preference {
  static set(domain, key, value) {
    let tag, bytes;
    if (value instanceof ArrayBuffer) {
      tag = 'a';
      bytes = value;
    } else if (typeof value === 'string') {
      tag = 's';
      bytes = ArrayBuffer.fromString(value);
    } else if (typeof value === 'boolean') {
      tag = 'b';
      bytes = ArrayBuffer.fromString(value ? '1' : '0');
    } else if (Number.isInteger(value)) {
      tag = 'i';
      bytes = ArrayBuffer.fromString(String(value));
    } else throw new Error('preference: unsupported value');
    const file = path(domain, key);
    if (File.exists(file)) File.delete(file);
    const f = new File(file, true);
    try {
      f.write(tag);
      if (bytes.byteLength) f.write(bytes);
    } finally {
      f.close();
    }
  }

  static get(domain, key) {
    const file = path(domain, key);
    if (!File.exists(file)) return undefined;
    const f = new File(file);
    let tag, bytes;
    try {
      const length = f.length;
      if (length < 1) return undefined;
      tag = f.read(String, 1);
      bytes = length > 1 ? f.read(ArrayBuffer, length - 1) : new ArrayBuffer(0);
    } finally {
      f.close();
    }
    if (tag === 'a') return bytes;
    const text = String.fromArrayBuffer(bytes);
    if (tag === 's') return text;
    if (tag === 'b') return text === '1';
    if (tag === 'i') return parseInt(text, 10);
    return undefined;
  }

  static delete(domain, key) {
    const file = path(domain, key);
    if (File.exists(file)) File.delete(file);
  }

  static keys(domain) {
    const prefix = domain + SEPARATOR;
    const result = [];
    for (const entry of new Iterator(root)) {
      if (entry.length !== undefined && entry.name.startsWith(prefix)) result.push(entry.name.slice(prefix.length));
    }
    return result;
  }
}
