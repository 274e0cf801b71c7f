/**
 * The host-independent parts of the Moddable target, on Node: URL splitting
 * (XS has no URL), tick unwrapping, the board configuration, and the
 * preference-backed store against an in-memory `preference` with ESP32 NVS limits.
 */
import { strict as assert } from 'node:assert';
import { AgentError } from '../../src/errors.js';
import { parseChannelList } from '../../src/config/parse.js';
import { readBoardConfig } from '../../targets/moddable/config.js';
import { readUpdateSettings } from '../../targets/moddable/ota-settings.js';
import { fnv1a36, preferenceStore, type PreferenceApi } from '../../targets/moddable/store.js';
import { TickUnwrapper } from '../../targets/moddable/ticks.js';
import { analogChannels } from './heap-run.js';
import { splitUrl } from '../../targets/moddable/url.js';

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return e instanceof AgentError ? e.code : `not an AgentError: ${String(e)}`;
  }
  return 'no error';
}

// XS's `String.fromArrayBuffer(buffer, offset, length)` (UTF-8), which the store decodes its blobs with.
(
  String as unknown as { fromArrayBuffer?: (b: ArrayBuffer, offset?: number, length?: number) => string }
).fromArrayBuffer ??= (b, offset = 0, length = b.byteLength - offset) =>
  Buffer.from(b, offset, length).toString('utf8');

/** `preference` with the ESP32 NVS rules: names of at most 15 characters; values kept as given. */
class FakePreference implements PreferenceApi {
  readonly data = new Map<string, unknown>();
  set(domain: string, key: string, value: ArrayBuffer): void {
    assert.ok(domain.length <= 15 && key.length <= 15, `NVS name too long: ${domain}/${key}`);
    this.data.set(`${domain}/${key}`, value);
  }
  get(domain: string, key: string): unknown {
    return this.data.get(`${domain}/${key}`);
  }
  delete(domain: string, key: string): void {
    this.data.delete(`${domain}/${key}`);
  }
  keys(domain: string): string[] {
    return [...this.data.keys()].filter((k) => k.startsWith(`${domain}/`)).map((k) => k.slice(domain.length + 1));
  }
}

describe('moddable target', () => {
  describe('splitUrl', () => {
    it('splits http, https, ws and wss URLs with default and explicit ports (what the firmware builds from serviceUrl)', () => {
      assert.deepEqual(splitUrl('http://127.0.0.1:8080/api/v1/channels/list?device=demo-001'), {
        secure: false,
        host: '127.0.0.1',
        port: 8080,
        path: '/api/v1/channels/list?device=demo-001',
      });
      assert.deepEqual(splitUrl('https://dds.example.com'), {
        secure: true,
        host: 'dds.example.com',
        port: 443,
        path: '/',
      });
      assert.deepEqual(splitUrl('wss://h/hubs/properties?id=x%2By'), {
        secure: true,
        host: 'h',
        port: 443,
        path: '/hubs/properties?id=x%2By',
      });
      assert.deepEqual(splitUrl('ws://[::1]:81/?x=1'), { secure: false, host: '::1', port: 81, path: '/?x=1' });
    });

    it('gives the same parts on every call (its pattern is compiled once and shared)', () => {
      const urls = ['https://[fe80::1]:8443/a?b=1', 'http://h/x', 'ws://h2:9/'];
      const first = urls.map((u) => splitUrl(u));
      for (let i = 0; i < 3; i++)
        assert.deepEqual(
          urls.map((u) => splitUrl(u)),
          first,
        );
      assert.deepEqual(first[0], { secure: true, host: 'fe80::1', port: 8443, path: '/a?b=1' });
      assert.equal(
        code(() => splitUrl('http://[::1/')),
        'config.invalid',
        'an unclosed bracket',
      );
    });

    it('refuses other schemes and bad ports with config.invalid', () => {
      assert.equal(
        code(() => splitUrl('ftp://h/')),
        'config.invalid',
      );
      assert.equal(
        code(() => splitUrl('http://h:70000/')),
        'config.invalid',
      );
      assert.equal(
        code(() => splitUrl('not a url')),
        'config.invalid',
      );
      assert.equal(
        code(() => splitUrl('http://h:0/')),
        'config.invalid',
      );
      assert.throws(
        () => splitUrl('http://h/a b'),
        (e) => e instanceof AgentError && e.code === 'config.invalid' && e.message === 'url: invalid: http://h/a b',
        'a path is encoded by the core: no spaces',
      );
    });
  });

  describe('TickUnwrapper', () => {
    it('keeps time monotonic across an unsigned 32-bit wrap', () => {
      const t = new TickUnwrapper(2 ** 32 - 10);
      assert.equal(t.unwrap(2 ** 32 - 5), 2 ** 32 - 5);
      assert.equal(t.unwrap(3), 2 ** 32 + 3);
      assert.equal(t.unwrap(100), 2 ** 32 + 100);
    });

    it('keeps time continuous when the counter is a signed 32-bit integer', () => {
      const t = new TickUnwrapper(2 ** 31 - 2);
      const values = [2 ** 31 - 1, -(2 ** 31), -1, 0, 2 ** 31 - 1, -(2 ** 31)].map((v) => t.unwrap(v));
      for (let i = 1; i < values.length; i++) assert.ok(values[i]! > values[i - 1]!, `step ${i}: ${values.join(', ')}`);
      assert.equal(values[1]! - values[0]!, 1);
      assert.equal(values[3]! - values[2]!, 1);
    });
  });

  describe('readBoardConfig', () => {
    const manifest = {
      serviceUrl: 'http://10.0.0.2:8080/',
      deviceKey: 'demo-001',
      token: 'device-token-demo-001',
      gnssPort: 2,
      modbusPort: 1,
      modbusDirPin: 25,
      sntp: 'pool.ntp.org',
    };

    it('reads the manifest config with defaults', () => {
      const board = readBoardConfig(manifest, () => undefined);
      assert.equal(board.serviceUrl, 'http://10.0.0.2:8080');
      assert.deepEqual(board, {
        serviceUrl: 'http://10.0.0.2:8080',
        caCert: undefined,
        deviceKey: 'demo-001',
        token: 'device-token-demo-001',
        sntp: 'pool.ntp.org',
        logLevel: 'info',
        gnssPort: 2,
        gnssBaud: 9600,
        gnssRx: 16,
        gnssTx: 17,
        modbusBus: 'rs485',
        modbusPort: 1,
        modbusRx: 26,
        modbusTx: 27,
        modbusDirPin: 25,
        pwmHz: 1000,
        batchBytes: 2048,
        outboxBytes: 12288,
      });
    });

    it('reads the update settings and refuses a malformed fwKey or fwVersion (docs/ota.md)', () => {
      const key = 'A'.repeat(122);
      assert.deepEqual(
        readUpdateSettings(manifest, () => undefined),
        {
          fwVersion: '0.0.0',
          fwKey: undefined,
          fwTrialS: 300,
        },
      );
      const prefs: Record<string, unknown> = { fwTrialS: '60' };
      const board = readUpdateSettings({ ...manifest, fwVersion: '1.2.0', fwKey: key }, (name) => prefs[name]);
      assert.deepEqual(board, { fwVersion: '1.2.0', fwKey: key, fwTrialS: 60 });
      assert.throws(() => readUpdateSettings({ fwKey: 'not a key' }, () => undefined), /fwKey/);
      assert.throws(() => readUpdateSettings({ fwVersion: '1 0' }, () => undefined), /fwVersion/);
      assert.throws(() => readUpdateSettings({ fwTrialS: 5 }, () => undefined), /fwTrialS/);
    });

    it('lets preferences override entries, numbers given as strings included', () => {
      const prefs: Record<string, unknown> = { token: 'other', gnssBaud: '38400', logLevel: 'debug' };
      const board = readBoardConfig(manifest, (name) => prefs[name]);
      assert.equal(board.token, 'other');
      assert.equal(board.gnssBaud, 38400);
      assert.equal(board.logLevel, 'debug');
    });

    it('leaves GNSS and Modbus off when their port is null (the simulator)', () => {
      const board = readBoardConfig({ ...manifest, gnssPort: null, modbusPort: null }, () => undefined);
      assert.equal(board.gnssPort, undefined);
      assert.equal(board.modbusPort, undefined);
    });

    it('refuses a missing token or a bad pin with config.invalid', () => {
      assert.equal(
        code(() => readBoardConfig({ ...manifest, token: undefined }, () => undefined)),
        'config.invalid',
      );
      assert.equal(
        code(() => readBoardConfig({ ...manifest, modbusDirPin: 99 }, () => undefined)),
        'config.invalid',
      );
      assert.equal(
        code(() => readBoardConfig({ ...manifest, logLevel: 'loud' }, () => undefined)),
        'config.invalid',
      );
      assert.throws(
        () => readBoardConfig({ ...manifest, modbusDirPin: '9x' }, () => undefined),
        (e) => e instanceof AgentError && e.message === 'board config: modbusDirPin: expected integer 0..63, got "9x"',
      );
      assert.throws(
        () => readBoardConfig({ ...manifest, serviceUrl: '' }, () => undefined),
        (e) => e instanceof AgentError && e.message === 'board config: serviceUrl: expected a value, got undefined',
      );
      assert.throws(
        () => readBoardConfig({ ...manifest, deviceKey: 7 }, () => undefined),
        (e) => e instanceof AgentError && e.message === 'board config: deviceKey: expected text, got 7',
      );
      assert.throws(
        () => readBoardConfig({ ...manifest, gnssBaud: true }, () => undefined),
        (e) =>
          e instanceof AgentError && e.message === 'board config: gnssBaud: expected integer 300..8000000, got true',
      );
      assert.throws(
        () => readBoardConfig({ ...manifest, token: 123456789 }, () => undefined),
        (e) => e instanceof AgentError && /token: expected text, got number$/.test(e.message),
        'a mistyped token is not echoed',
      );
      assert.throws(
        () => readBoardConfig(manifest, (name) => (name === 'batchBytes' ? '100' : undefined)),
        (e) => e instanceof AgentError && e.code === 'config.invalid' && /batchBytes/.test(e.message),
      );
    });
  });

  describe('preferenceStore', () => {
    it('stores long keys under short NVS names and lists them by prefix, sorted', () => {
      const prefs = new FakePreference();
      const store = preferenceStore(prefs);
      store.set('outbox/record/000002', 'b');
      store.set('outbox/record/000001', 'a');
      store.set('config/channels', '{"channels":[]}');
      assert.equal(store.get('outbox/record/000001'), 'a');
      assert.equal(store.get('config/channels'), '{"channels":[]}');
      assert.equal(store.get('missing'), undefined);
      assert.deepEqual(store.keys('outbox/'), ['outbox/record/000001', 'outbox/record/000002']);
      store.set('outbox/record/000001', 'a2');
      assert.equal(store.get('outbox/record/000001'), 'a2');
      store.delete('outbox/record/000001');
      assert.equal(store.get('outbox/record/000001'), undefined);
      assert.deepEqual(store.keys(''), ['config/channels', 'outbox/record/000002']);
      assert.equal(prefs.data.size, 2);
    });

    it('names slots by FNV-1a 32 in base 36, as boards already store them (the published test vectors)', () => {
      const vectors: [string, number][] = [
        ['', 0x811c9dc5],
        ['a', 0xe40c292c],
        ['foobar', 0xbf9cf968],
      ];
      for (const [text, hash] of vectors) assert.equal(fnv1a36(text), hash.toString(36), text);
      // UTF-16 code units, as the first firmware hashed them: 'é' is 0xe9, '€' 0x20ac.
      assert.equal(
        fnv1a36('é€'),
        (Math.imul(Math.imul(0x811c9dc5 ^ 0xe9, 0x01000193) ^ 0x20ac, 0x01000193) >>> 0).toString(36),
      );
      assert.equal(fnv1a36('agent/channels'), '1e28rz7'); // as the firmware before this change named it
    });

    it('keeps colliding keys apart and finds them after a delete', () => {
      const prefs = new FakePreference();
      const store = preferenceStore(prefs, 'agent', 3900, () => 'same');
      store.set('a', '1');
      store.set('b', '2');
      store.set('c', '3');
      assert.deepEqual([...prefs.data.keys()].sort(), ['agent/same', 'agent/same.1', 'agent/same.2']);
      store.delete('a');
      assert.equal(store.get('b'), '2');
      assert.equal(store.get('c'), '3', 'the chain stays contiguous after a delete');
      assert.deepEqual(store.keys(''), ['b', 'c']);
      assert.equal(prefs.data.size, 2);
    });

    it('caches the configuration of 32 channels (over 8,000 B) and reads it back as the same channels', () => {
      const prefs = new FakePreference();
      const store = preferenceStore(prefs);
      const text = JSON.stringify({ buses: [], channels: analogChannels(32) });
      assert.ok(text.length > 8000 && text.length < 12000, `${text.length} B`);
      store.set('agent/channels', text);
      assert.equal(prefs.data.size, 1, 'one NVS value');
      assert.deepEqual(parseChannelList(JSON.parse(store.get('agent/channels')!)), parseChannelList(JSON.parse(text)));
      assert.equal(parseChannelList(JSON.parse(store.get('agent/channels')!)).channels.length, 32);
      // The bound is the store's default: 12,000 B with the key's record.
      assert.equal(
        code(() => store.set('agent/channels', 'x'.repeat(12000))),
        'too-large',
      );
      assert.equal(store.get('agent/channels'), text, 'a refused value leaves the cached one');
    });

    it('writes each entry as one UTF-8 blob (key, newline, value), and takes a slot holding anything else as free', () => {
      const prefs = new FakePreference();
      const store = preferenceStore(prefs, 'agent', 12000, () => 'slot');
      const value = 'a é € 𝄞 z'; // 1, 2, 3 and 4 bytes a character
      store.set('k/é', value);
      const blob = prefs.data.get('agent/slot');
      assert.ok(blob instanceof ArrayBuffer);
      assert.deepEqual(Buffer.from(blob), Buffer.from(`k/é\n${value}`, 'utf8'));
      assert.equal(store.get('k/é'), value);
      assert.deepEqual(store.keys('k/'), ['k/é']);
      // A value that is not a blob is no entry of this store: its slot is written over.
      prefs.data.set('agent/slot', `k/é\nold`);
      assert.equal(store.get('k/é'), undefined);
      store.set('k/é', 'new');
      assert.equal(prefs.data.size, 1, 'written over in its slot');
      assert.equal(store.get('k/é'), 'new');
    });

    it('refuses a value over the NVS limit with too-large, storing nothing', () => {
      const prefs = new FakePreference();
      const store = preferenceStore(prefs, 'agent', 100);
      assert.equal(
        code(() => store.set('k', 'é'.repeat(60))),
        'too-large',
      );
      assert.equal(prefs.data.size, 0);
    });
  });
});
