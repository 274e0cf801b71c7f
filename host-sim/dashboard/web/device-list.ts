/**
 * The device list: search by the API's `q` (debounced), enabled state,
 * "last seen" (the newest `.reported` of each device, kept live from Notify),
 * whether the device reported since it was provisioned (its property
 * `provisioned-at`, which `npm run provision` sets, decisions 8, against the
 * last `.reported`), and the firmware each device runs and the state of its
 * update (`fw-running`, `fw-status`). Properties are read once per device and
 * kept live from the `properties` Notify. An admin selects devices here for a
 * firmware update (firmware-panel.ts). A device token cannot list devices
 * (403): it sees its own device only, and the search filters that one locally.
 */
import type { Api, DeviceInfo, Scalar } from './api.js';
import { ago, h, replace } from './dom.js';

/** The device property `npm run provision` sets (host-sim/provision/provision.ts). */
const ProvisionedAt = 'provisioned-at';
/** Property reads in flight at once while the list loads. */
const parallelReads = 8;

export class DeviceList {
  readonly element: HTMLElement;
  private readonly rows: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly lastSeen = new Map<string, number>();
  /** `provisioned-at` of each listed device, ms (NaN: never provisioned through npm run provision). */
  private readonly provisioned = new Map<string, number>();
  /** uid -> fw-running and fw-status. */
  private readonly firmware = new Map<string, { running: string; status: string }>();
  private readonly chosen = new Set<string>();
  private readonly all: HTMLInputElement;
  private devices: DeviceInfo[] = [];
  private debounce: number | undefined;
  private seq = 0;

  constructor(
    private readonly api: Api,
    /** For a device token: the only device it may see (key or UID); '' for an admin. */
    private readonly own: string,
  ) {
    this.search = h('input', {
      type: 'search',
      id: 'device-search',
      placeholder: 'name, key or parent',
      autocomplete: 'off',
    });
    this.search.addEventListener('input', () => {
      window.clearTimeout(this.debounce);
      this.debounce = window.setTimeout(() => void this.load(), 150);
    });
    this.rows = h('tbody');
    this.all = h('input', { type: 'checkbox', id: 'select-all', 'aria-label': 'Select every listed device' });
    this.all.addEventListener('change', () => {
      for (const d of this.devices)
        if (this.all.checked) this.chosen.add(d.uid);
        else this.chosen.delete(d.uid);
      this.render();
    });
    this.element = h(
      'section',
      { class: 'device-list', 'aria-label': 'Devices' },
      h('h2', {}, 'Devices'),
      h('label', { for: 'device-search' }, 'Search '),
      this.search,
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'Device'),
            h('th', {}, 'Key'),
            h('th', {}, 'Enabled'),
            h('th', {}, 'Last seen'),
            h('th', {}, 'Provisioned'),
            h('th', {}, 'Firmware'),
            h('th', {}, 'Update'),
            this.own === '' ? h('th', {}, this.all) : null,
          ),
        ),
        this.rows,
      ),
    );
  }

  async load(): Promise<void> {
    const q = this.search.value.trim();
    const seq = ++this.seq;
    let devices: DeviceInfo[];
    if (this.own !== '') {
      const needle = q.toLowerCase();
      const hit = (d: DeviceInfo): boolean =>
        needle === '' || d.name.toLowerCase().includes(needle) || d.key.toLowerCase().includes(needle);
      devices = [await this.api.getDevice(this.own)].filter(hit);
    } else {
      devices = await this.api.listDevices(q);
    }
    if (seq !== this.seq) return; // a newer search answered first
    this.devices = devices;
    await this.readProperties(devices.filter((d) => !this.firmware.has(d.uid)));
    if (seq !== this.seq) return;
    if (this.lastSeen.size === 0) {
      for (const r of await this.api.lastStates(undefined, ['*.reported']).catch(() => []))
        this.seen(r.entity, r.tsMs, false);
    }
    this.render();
  }

  /** The Provisioned cell: when, and whether a `.reported` came after it. */
  private provisionedCell(uid: string): HTMLElement {
    const at = this.provisioned.get(uid);
    if (at === undefined || Number.isNaN(at)) return h('td', { class: 'provisioned' }, '\u2014');
    const seen = this.lastSeen.get(uid) ?? 0;
    const text = seen >= at ? 'reported since' : 'not reported since';
    return h('td', { class: 'provisioned', title: new Date(at).toISOString() }, `${ago(Date.now(), at)}, ${text}`);
  }

  /** A `.reported` time of a device (from Notify). */
  seen(entity: string, tsMs: number, render = true): void {
    if ((this.lastSeen.get(entity) ?? 0) < tsMs) this.lastSeen.set(entity, tsMs);
    if (render) this.render();
  }

  /** The devices selected for an update (those still listed). */
  selected(): DeviceInfo[] {
    return this.devices.filter((d) => this.chosen.has(d.uid));
  }

  /** A device's properties (read, or a `properties` Notify): provisioned-at, fw-running, fw-status, if named. */
  properties(entity: string, values: Record<string, unknown>): void {
    const at = values[ProvisionedAt];
    if (typeof at === 'string') {
      this.provisioned.set(entity, Date.parse(at));
      this.render();
    }
    const fw = this.firmware.get(entity) ?? { running: '', status: '' };
    const running = values['fw-running'];
    const status = values['fw-status'];
    if (typeof running !== 'string' && typeof status !== 'string') return;
    this.firmware.set(entity, {
      running: typeof running === 'string' ? running : fw.running,
      status: typeof status === 'string' ? status : fw.status,
    });
    this.render();
  }

  private async readProperties(devices: DeviceInfo[]): Promise<void> {
    const queue = [...devices];
    const worker = async (): Promise<void> => {
      for (let d = queue.shift(); d !== undefined; d = queue.shift()) {
        const p: Record<string, Scalar> = await this.api.properties(d.uid).catch(() => ({}));
        this.properties(d.uid, p);
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallelReads, queue.length) }, worker));
  }

  private render(): void {
    const now = Date.now();
    replace(
      this.rows,
      ...this.devices.map((d) => {
        const seen = this.lastSeen.get(d.uid);
        const fw = this.firmware.get(d.uid);
        const box = h('input', { type: 'checkbox', 'aria-label': `Select ${d.key}`, checked: this.chosen.has(d.uid) });
        box.addEventListener('change', () => (box.checked ? this.chosen.add(d.uid) : this.chosen.delete(d.uid)));
        return h(
          'tr',
          { 'data-device': d.key },
          h('td', {}, h('a', { href: `#/device/${encodeURIComponent(d.uid)}` }, d.name)),
          h('td', {}, d.key),
          h('td', {}, d.enabled ? 'yes' : 'no'),
          h('td', { class: 'last-seen' }, seen === undefined ? 'never' : ago(now, seen)),
          this.provisionedCell(d.uid),
          h('td', { class: 'fw-running' }, fw?.running || '–'),
          h('td', { class: 'fw-status', 'data-status': (fw?.status ?? '').split(' ')[0] }, fw?.status || '–'),
          this.own === '' ? h('td', {}, box) : null,
        );
      }),
    );
    if (this.devices.length === 0) replace(this.rows, h('tr', {}, h('td', { colspan: 8 }, 'no device matches')));
  }
}
