/**
 * One uPlot chart per numeric channel: the chosen range (10 min .. 7 days)
 * read from `states/read` with `windowPeriod` = range / plot width, so a read
 * returns about one point per pixel; live `.reported` points are appended and
 * points older than the range fall off. Dragging across a plot zooms into it.
 */
import uPlot from 'uplot';
import type { Api } from './api.js';
import type { ChannelView } from './channels.js';
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

export class ChannelPlot {
  readonly element: HTMLElement;
  private readonly host: HTMLElement;
  private plot: uPlot | undefined;
  private xs: number[] = [];
  private ys: number[] = [];
  private rangeS = 3600;

  constructor(
    private readonly api: Api,
    private readonly device: string,
    readonly channel: ChannelView,
  ) {
    this.host = h('div', { class: 'plot-host', role: 'img', 'aria-label': `${channel.name} over time` });
    this.element = h(
      'figure',
      { class: 'plot', 'data-channel': channel.key },
      h('figcaption', {}, `${channel.name}${channel.unit ? ` (${channel.unit})` : ''}`),
      this.host,
    );
  }

  /** Reads the last `rangeS` seconds and redraws. */
  async load(rangeS: number): Promise<void> {
    this.rangeS = rangeS;
    const width = this.host.clientWidth || 600;
    const stopS = Date.now() / 1000;
    const records = await this.api.readStates(
      this.device,
      [`${this.channel.key}.reported`],
      stopS - rangeS,
      stopS + 1,
      windowSeconds(rangeS, width),
    );
    this.xs = [];
    this.ys = [];
    for (const r of records) {
      if (typeof r.value !== 'number') continue;
      this.xs.push(r.tsMs / 1000);
      this.ys.push(r.value);
    }
    this.draw(width);
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
    this.plot?.setData([this.xs, this.ys]);
  }

  get points(): number {
    return this.xs.length;
  }

  resize(): void {
    this.plot?.setSize({ width: this.host.clientWidth || 600, height: 160 });
  }

  private draw(width: number): void {
    this.plot?.destroy();
    this.plot = new uPlot(
      {
        width,
        height: 160,
        legend: { show: false },
        cursor: { drag: { x: true, y: false } },
        scales: { x: { time: true } },
        axes: [{ stroke: '#333' }, { stroke: '#333', size: 60 }],
        series: [{}, { label: this.channel.name, stroke: '#0b57d0', width: 1.5, points: { show: false } }],
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
