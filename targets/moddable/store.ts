/**
 * The KeyValueStore port over Moddable's `preference` module.
 *
 * ESP32 NVS limits keys (and domains) to 15 characters, string values to
 * about 4000 bytes, a blob to 97.6% of the partition less 4000 B (19,986 B of
 * the default 24 KiB) and all values together to the partition; entries are
 * written as UTF-8 blobs (ArrayBuffer, as every version since blobs came has
 * written them) to pass the string limit, and of one read only what is needed is
 * decoded. A value of up to
 * 12,000 B is taken: the configuration of 32 channels (8.7 KB) is cached, with
 * room left in the partition for the outbox (docs/moddable.md, "Storage").
 * The core's keys are longer, so each is stored under a short hashed slot
 * name, with the full key written in front of the value; `keys` reads them
 * back from there. Colliding keys probe the next slot. A value over
 * `maxValueBytes` is refused with `too-large` (never truncated).
 */
import { hashText } from '../../src/agent/channel-set.js';
import { AgentError } from '../../src/errors.js';
import type { KeyValueStore } from '../../src/ports.js';
import { exceedsBytes, utf8Length } from '../../src/utf8.js';
import { text } from './http-reader.js';

/** What this store needs of `preference` (the module itself: its typing from @moddable/typings fits). */
export interface PreferenceApi {
  set(domain: string, key: string, value: ArrayBuffer): void;
  get(domain: string, key: string): unknown;
  delete(domain: string, key: string): void;
  keys(domain: string): string[];
}

const SEPARATOR = '\n';

/**
 * An entry (`<key>\n<value>`) as a UTF-8 blob, the value written straight into it: no joined string is made
 * beside the value and its bytes (a board caching 32 channels' configuration holds two copies of it, not three).
 */
export function entryBlob(key: string, value: string): ArrayBuffer {
  const head = key + SEPARATOR;
  const bytes = new Uint8Array(utf8Length(head) + utf8Length(value));
  utf8Length(value, bytes, utf8Length(head, bytes));
  return bytes.buffer;
}

const MAX_PROBES = 16;

/** FNV-1a, 32 bits, in base 36 (at most 7 characters): the high bits of the core's `hashText`. */
export function fnv1a36(text: string): string {
  return Math.floor(hashText(text) / 0x200000).toString(36);
}

/** Slot names of a hash chain: `base`, `base.1`, `base.2`, ... (kept contiguous). */
function slotName(base: string, index: number): string {
  return index === 0 ? base : `${base}.${index}`;
}

/**
 * The store in NVS domain `domain` (at most 15 characters); `hash` gives a
 * key's slot base name, at most 12 characters (tests inject collisions).
 */
export function preferenceStore(
  preference: PreferenceApi,
  domain = 'agent',
  maxValueBytes = 12000,
  hash = fnv1a36,
): KeyValueStore {
  /**
   * A slot's entry: its key, and its value with `whole` ('' without: finding a key decodes no value, so a
   * configuration cached again never has the old one decoded beside the new).
   */
  const read = (slot: string, whole?: boolean): [string, string] | undefined => {
    const raw = preference.get(domain, slot);
    if (!(raw instanceof ArrayBuffer)) return undefined;
    const bytes = new Uint8Array(raw);
    const at = bytes.indexOf(10);
    return at < 0 ? undefined : [text(bytes, 0, at), whole ? text(bytes, at + 1, bytes.length) : ''];
  };

  /**
   * The chain of `key`: the slot holding it and its entry, or the chain's first
   * free slot and no entry; with the chain's base name and the slot's index.
   */
  const find = (
    key: string,
    whole?: boolean,
  ): [slot: string, entry: [string, string] | undefined, base: string, index: number] => {
    const base = hash(key);
    for (let index = 0; index < MAX_PROBES; index++) {
      const slot = slotName(base, index);
      const entry = read(slot, whole);
      if (entry === undefined || entry[0] === key) return [slot, entry, base, index];
    }
    throw new AgentError('overflow', `store: no free slot for ${key}`);
  };

  return {
    get: (key) => find(key, true)[1]?.[1],

    set(key, value) {
      // Measured before the record is made: a value refused is never copied.
      if (exceedsBytes(value, maxValueBytes - utf8Length(key + SEPARATOR))) {
        throw new AgentError('too-large', `store: ${key} over ${maxValueBytes} B`);
      }
      preference.set(domain, find(key)[0], entryBlob(key, value));
    },

    delete(key) {
      const [slot, entry, base, index] = find(key);
      if (entry === undefined) return;
      // Keep the chain contiguous: the chain's last entry moves into the hole.
      let last = index;
      while (last + 1 < MAX_PROBES && read(slotName(base, last + 1)) !== undefined) last++;
      const lastSlot = slotName(base, last);
      // Every slot up to `last` holds an entry (a blob: `read` found one there).
      if (last > index) preference.set(domain, slot, preference.get(domain, lastSlot) as ArrayBuffer);
      preference.delete(domain, lastSlot);
    },

    keys(prefix) {
      const out: string[] = [];
      for (const slot of preference.keys(domain)) {
        const key = read(slot)?.[0];
        if (key !== undefined && key.startsWith(prefix)) out.push(key);
      }
      return out.sort();
    },
  };
}
