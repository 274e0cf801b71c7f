/**
 * One uPlot chart per numeric channel: the chosen range (10 min .. 7 days)
 * read from `states/read` with `windowPeriod` = range / plot width, so a read
 * returns about one point per pixel; live `.reported` points are appended and
 * points older than the range fall off. Dragging across a plot zooms into it.
 */
import uPlot from 'uplot';
import type { Api } from './api.js';
import { h } from './dom.js';

/** The ranges offered, in seconds. */
export const ranges: ReadonlyArray<{ label: string; seconds: number }> = [
  { label: '10 min', seconds: 600 },
  { label: '1 h', seconds: 3600 },
  { label: '6 h', seconds: 6 * 3600 },
  { label: '1 day', seconds: 86400 },
  { label: '7 days', seconds: 7 * 86400 },
];

/** Seconds per window for `rangeS` drawn on `widthPx` (at least 1 s). */
export function windowSeconds(rangeS: number, widthPx: number): number {
  return Math.max(1, Math.ceil(rangeS / Math.max(100, widthPx)));
}

/** What a plot shows: a channel's `.reported` states, or a metric's measurements. */
export interface PlotSource {
  kind: 'states' | 'measurements';
  /** Channel or metric key. */
  key: string;
  title: string;
  unit: string;
}

export class SeriesPlot {
  readonly element: HTMLElement;
  private readonly host: HTMLElement;
  private plot: uPlot | undefined;
  private xs: number[] = [];
  private ys: number[] = [];
  private rangeS = 3600;
  /** The user dragged a zoom: live points no longer slide the x range. */
  private zoomed = false;
  private readonly empty: HTMLElement;

  constructor(
    private readonly api: Api,
    private readonly device: string,
    readonly source: PlotSource,
  ) {
    this.host = h('div', { class: 'plot-host', role: 'img', 'aria-label': `${source.title} over time` });
    this.empty = h('p', { class: 'plot-empty', hidden: true }, 'no values in this range');
    this.element = h(
      'figure',
      { class: 'plot', [`data-${source.kind === 'states' ? 'channel' : 'metric'}`]: source.key },
      h('figcaption', {}, `${source.title}${source.unit ? ` (${source.unit})` : ''}`),
      this.empty,
      this.host,
    );
  }

  /** Reads the last `rangeS` seconds and redraws. */
  async load(rangeS: number): Promise<void> {
    this.rangeS = rangeS;
    const width = this.host.clientWidth || 600;
    const stopS = Date.now() / 1000;
    const windowS = windowSeconds(rangeS, width);
    // The last window is stamped at the range's stop (decisions 6): stop at now, so live points append after it.
    const { kind, key } = this.source;
    const records =
      kind === 'states'
        ? await this.api.readStates(this.device, [`${key}.reported`], stopS - rangeS, stopS, windowS)
        : await this.api.readMeasurements(this.device, [key], stopS - rangeS, stopS, windowS);
    this.xs = [];
    this.ys = [];
    for (const r of records) {
      if (typeof r.value !== 'number') continue;
      this.xs.push(r.tsMs / 1000);
      this.ys.push(r.value);
    }
    this.draw(width);
    this.slide(stopS);
  }

  /** A live point (Unix ms); ignored when not newer than the last one. */
  append(tsMs: number, value: number): void {
    const x = tsMs / 1000;
    const last = this.xs[this.xs.length - 1];
    if (last !== undefined && x <= last) return;
    this.xs.push(x);
    this.ys.push(value);
    const from = x - this.rangeS;
    while (this.xs.length > 0 && (this.xs[0] ?? x) < from) {
      this.xs.shift();
      this.ys.shift();
    }
    this.plot?.setData([this.xs, this.ys], false);
    this.slide(x);
  }

  /** Shows [nowS - range, nowS] unless the user zoomed. */
  private slide(nowS: number): void {
    this.empty.hidden = this.xs.length > 0;
    this.element.dataset['points'] = String(this.xs.length);
    if (!this.zoomed) this.plot?.setScale('x', { min: nowS - this.rangeS, max: nowS });
  }

  get points(): number {
    return this.xs.length;
  }

  resize(): void {
    this.plot?.setSize({ width: this.host.clientWidth || 600, height: 160 });
  }

  private draw(width: number): void {
    this.plot?.destroy();
    this.zoomed = false;
    this.plot = new uPlot(
      {
        width,
        height: 160,
        legend: { show: false },
        cursor: { drag: { x: true, y: false } },
        scales: { x: { time: true } },
        axes: [{ stroke: '#333' }, { stroke: '#333', size: 72 }],
        series: [{}, { label: this.source.title, stroke: '#0b57d0', width: 1.5 }],
        hooks: { setSelect: [() => (this.zoomed = true)] },
      },
      [this.xs, this.ys],
      this.host,
    );
  }

  destroy(): void {
    this.plot?.destroy();
    this.plot = undefined;
  }
}
