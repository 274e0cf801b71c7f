/**
 * The workload of bench/xs-signalr.mjs: hub messages of a recorded session
 * decoded on the engine it runs on (xsnap), by
 * - `ours`: RecordDecoder + parseHubMessage (framing, validation, typed message),
 * - `peer`: `@microsoft/signalr`'s JsonHubProtocol.parseMessages, as its authors
 *   intend it to be used (bundled unchanged from the package's ESM build),
 * - `floor`: split at the record separator and JSON.parse each record, nothing
 *   else: what any JSON decoder pays.
 * It installs `globalThis.__hub`.
 */
import { JsonHubProtocol, NullLogger } from '@microsoft/signalr';
import { parseHubMessage, RecordDecoder } from '../../src/signalr/record-codec.js';

const messages: string[] = [];
const decoder = new RecordDecoder(1 << 20);
const protocol = new JsonHubProtocol();
let records = 0;
const onRecord = (record: string): void => {
  parseHubMessage(record); // validates or throws; a Ping is undefined but counts
  records++;
};

export const hub = {
  /** Keeps the messages to decode (WebSocket text messages, each ending with the separator). */
  load(list: string[]): number {
    messages.length = 0;
    for (const m of list) messages.push(m);
    return messages.length;
  },
  /** Decodes every message `times` times with `runner`. */
  pass(runner: 'ours' | 'peer' | 'floor', times = 1): void {
    for (let t = 0; t < times; t++) {
      for (let i = 0; i < messages.length; i++) {
        const m = messages[i] as string;
        if (runner === 'ours') decoder.push(m, onRecord);
        else if (runner === 'peer') records += protocol.parseMessages(m, NullLogger.instance).length;
        else {
          let start = 0;
          for (let end = m.indexOf('\u001e'); end >= 0; end = m.indexOf('\u001e', start)) {
            if (JSON.parse(m.slice(start, end)) !== null) records++;
            start = end + 1;
          }
        }
      }
    }
  },
  records(): number {
    return records;
  },
};

(globalThis as { __hub?: typeof hub }).__hub = hub;
