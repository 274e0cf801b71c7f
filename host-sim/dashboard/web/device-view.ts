/**
 * A device's page: its channels grouped as the configuration says, each as a
 * tile with the latest `.reported` and, where writable, its `.desired`
 * control; the plots of numeric channels (and numeric measurements) over a chosen range; the GNSS track
 * of the location channel; the properties. First values come from one
 * `states/read/last`; the rest follows from the hub's Notify, dispatched here.
 */
import { Hub } from '../../../src/wire.js';
import { HubNames } from '../../service/wire.js';
import type { Api, DeviceInfo, SeriesRecord } from './api.js';
import { isObject, parseRecord } from './api.js';
import { groupChannels, type ChannelGroup } from './channels.js';
import { h, replace } from './dom.js';
import { ranges, SeriesPlot } from './plot.js';
import { PropertiesPanel } from './properties.js';
import { ChannelTile } from './tile.js';
import { fixOf, TrackMap } from './track-map.js';

/** `gps.lat.reported` -> { key: 'gps', field: 'lat', side: 'reported' }. */
export function splitStateName(name: string): { key: string; field?: string; side: string } {
  const parts = name.split('.');
  const side = parts.pop() ?? '';
  const key = parts[0] ?? '';
  return parts.length > 1 ? { key, field: parts.slice(1).join('.'), side } : { key, side };
}

export class DeviceView {
  readonly element: HTMLElement;
  private readonly tiles = new Map<string, ChannelTile>();
  private readonly plots = new Map<string, SeriesPlot>();
  /** Plots of the measurements whose latest value is a number, by metric. */
  private readonly metricPlots = new Map<string, SeriesPlot>();
  private readonly locationFields = new Map<string, Map<string, SeriesRecord>>();
  private readonly map = new TrackMap();
  private readonly props: PropertiesPanel;
  private readonly body: HTMLElement;
  private locationKey: string | undefined;
  private rangeS = 3600;
  private ticker: number | undefined;
  private device: DeviceInfo | undefined;

  private readonly title: HTMLElement;

  /** `uid`: the Device Unique ID (every read addresses the device by it). */
  constructor(
    private readonly api: Api,
    private readonly uid: string,
  ) {
    this.props = new PropertiesPanel(api, uid);
    this.body = h('div', { class: 'device-body' }, h('p', {}, 'loading…'));
    this.title = h('h2', {}, 'Device');
    this.element = h('section', { class: 'device' }, this.title, this.body);
  }

  /** Reads details, configuration, properties and latest states at once, renders, then the histories. */
  async load(): Promise<void> {
    const [device, channels, properties, last, metrics] = await Promise.all([
      this.api.getDevice(this.uid),
      this.api.channels(this.uid),
      this.api.properties(this.uid),
      this.api.lastStates(this.uid),
      this.api.lastMeasurements(this.uid),
    ]);
    for (const m of metrics) {
      if (typeof m.value !== 'number') continue;
      const source = { kind: 'measurements', key: m.name, title: `${m.name} (measurement)`, unit: '' } as const;
      this.metricPlots.set(m.name, new SeriesPlot(this.api, this.uid, source));
    }
    this.device = device;
    this.element.dataset['device'] = device.key;
    replace(this.title, `${device.name} (${device.key})`, device.enabled ? '' : ' · disabled');
    const groups = groupChannels(channels);
    this.render(groups);
    this.props.set(properties);
    for (const r of last) this.state(r);
    this.ticker = window.setInterval(() => {
      for (const t of this.tiles.values()) t.tick();
      this.map.tick();
    }, 1000);
    await this.loadHistory();
  }

  /** Re-reads the latest states (after a hub reconnect: Notifies may have been missed). */
  async resync(): Promise<void> {
    for (const r of await this.api.lastStates(this.uid)) this.state(r);
  }

  private render(groups: ChannelGroup[]): void {
    const sections = groups.map((g) =>
      h(
        'section',
        { class: 'group', 'aria-label': g.name },
        h('h3', {}, g.name),
        h(
          'div',
          { class: 'tiles' },
          ...g.channels.map((c) => {
            const tile = new ChannelTile(c, this.api, this.uid);
            this.tiles.set(c.key, tile);
            const source = { kind: 'states', key: c.key, title: c.name, unit: c.unit } as const;
            if (c.numeric) this.plots.set(c.key, new SeriesPlot(this.api, this.uid, source));
            if (c.type === 'location') this.locationKey ??= c.key;
            return tile.element;
          }),
        ),
      ),
    );
    const picker = h(
      'div',
      { class: 'ranges', role: 'group', 'aria-label': 'Plot range' },
      ...ranges.map((r) => {
        const b = h(
          'button',
          { type: 'button', 'aria-pressed': String(r.seconds === this.rangeS), 'data-range': r.seconds },
          r.label,
        );
        b.addEventListener('click', () => {
          this.rangeS = r.seconds;
          for (const other of picker.querySelectorAll('button'))
            other.setAttribute('aria-pressed', String(other === b));
          void this.loadHistory();
        });
        return b;
      }),
    );
    replace(
      this.body,
      ...sections,
      this.locationKey === undefined ? null : this.map.element,
      h(
        'section',
        { class: 'plots', 'aria-label': 'Plots' },
        h('h3', {}, 'Plots'),
        picker,
        ...[...this.plots.values(), ...this.metricPlots.values()].map((p) => p.element),
      ),
      this.props.element,
    );
  }

  private async loadHistory(): Promise<void> {
    const plots = [...this.plots.values(), ...this.metricPlots.values()].map((p) => p.load(this.rangeS));
    const key = this.locationKey;
    if (key !== undefined) {
      const stopS = Date.now() / 1000;
      const records = await this.api.readMeasurements(this.uid, [key], stopS - this.rangeS, stopS + 1);
      this.map.setTrack(records.flatMap((r) => fixOf(r.value, r.tsMs) ?? []));
    }
    await Promise.all(plots);
  }

  /** One state record, from the first read or a Notify. */
  state(r: SeriesRecord): void {
    const n = splitStateName(r.name);
    const tile = this.tiles.get(n.key);
    if (!tile) return;
    if (n.field !== undefined) return this.locationState(tile, n.key, n.field, r);
    if (n.side === 'desired') return tile.desired(r);
    tile.reported(r);
    if (typeof r.value === 'number') this.plots.get(n.key)?.append(r.tsMs, r.value);
  }

  /** `gps.lat.reported` and friends: the tile shows `lat, lon` (or the errno). */
  private locationState(tile: ChannelTile, key: string, field: string, r: SeriesRecord): void {
    if (!r.name.endsWith('.reported')) return;
    const fields = this.locationFields.get(key) ?? new Map<string, SeriesRecord>();
    this.locationFields.set(key, fields);
    fields.set(field, r);
    if (field !== 'lat' && field !== 'lon') return;
    const lat = fields.get('lat');
    const lon = fields.get('lon');
    if (r.error !== undefined) return tile.reported(r);
    if (typeof lat?.value === 'number' && typeof lon?.value === 'number') {
      tile.reported({ ...r, value: `${lat.value.toFixed(6)}, ${lon.value.toFixed(6)}` });
    }
  }

  /** A Notify argument (decisions 5, and the observed `.reported` states and measurements). */
  notify(arg: unknown): void {
    if (!isObject(arg) || arg['entity'] !== (this.device?.uid ?? this.uid)) return;
    if (arg['type'] === Hub.notifyStates && Array.isArray(arg['states'])) {
      for (const s of arg['states'] as unknown[]) this.state(parseRecord(s, 'channel'));
    } else if (arg['type'] === HubNames.notifyMeasurements && Array.isArray(arg['measurements'])) {
      for (const m of arg['measurements'] as unknown[]) {
        const r = parseRecord(m, 'metric');
        const fix = r.name === this.locationKey ? fixOf(r.value, r.tsMs) : undefined;
        if (fix) this.map.add(fix);
        if (typeof r.value === 'number') this.metricPlots.get(r.name)?.append(r.tsMs, r.value);
      }
    } else if (arg['type'] === Hub.notifyProperties && isObject(arg['values'])) {
      this.props.update(arg['values']);
    }
  }

  resize(): void {
    for (const p of [...this.plots.values(), ...this.metricPlots.values()]) p.resize();
  }

  destroy(): void {
    window.clearInterval(this.ticker);
    for (const p of [...this.plots.values(), ...this.metricPlots.values()]) p.destroy();
  }
}
