/**
 * The device list: search by the API's `q` (debounced), enabled state,
 * "last seen" (the newest `.reported` of each device, kept live from Notify),
 * and whether the device reported since it was provisioned: its property
 * `provisioned-at`, which `npm run provision` sets (decisions 8), against the
 * last `.reported`.
 * A device token cannot list devices (403): it sees its own device only, and
 * the search filters that one locally.
 */
import type { Api, DeviceInfo } from './api.js';
import { ago, h, replace } from './dom.js';

/** The device property `npm run provision` sets (host-sim/provision/provision.ts). */
const ProvisionedAt = 'provisioned-at';

export class DeviceList {
  readonly element: HTMLElement;
  private readonly rows: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly lastSeen = new Map<string, number>();
  /** `provisioned-at` of each listed device, ms (NaN: never provisioned through npm run provision). */
  private readonly provisioned = new Map<string, number>();
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
    if (this.lastSeen.size === 0) {
      for (const r of await this.api.lastStates(undefined, ['*.reported']).catch(() => []))
        this.seen(r.entity, r.tsMs, false);
    }
    this.render();
    await this.loadProvisioned(devices);
  }

  /** Reads `provisioned-at` of the devices not read yet (one properties/get each, at most 100 per load). */
  private async loadProvisioned(devices: DeviceInfo[]): Promise<void> {
    const missing = devices.filter((d) => !this.provisioned.has(d.uid)).slice(0, 100);
    await Promise.all(
      missing.map(async (d) => {
        const props: Record<string, unknown> = await this.api.properties(d.uid).catch(() => ({}));
        const at = props[ProvisionedAt];
        this.provisioned.set(d.uid, typeof at === 'string' ? Date.parse(at) : NaN);
      }),
    );
    if (missing.length > 0) this.render();
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

  private render(): void {
    const now = Date.now();
    replace(
      this.rows,
      ...this.devices.map((d) => {
        const seen = this.lastSeen.get(d.uid);
        return h(
          'tr',
          { 'data-device': d.key },
          h('td', {}, h('a', { href: `#/device/${encodeURIComponent(d.uid)}` }, d.name)),
          h('td', {}, d.key),
          h('td', {}, d.enabled ? 'yes' : 'no'),
          h('td', { class: 'last-seen' }, seen === undefined ? 'never' : ago(now, seen)),
          this.provisionedCell(d.uid),
        );
      }),
    );
    if (this.devices.length === 0) replace(this.rows, h('tr', {}, h('td', { colspan: 5 }, 'no device matches')));
  }
}
