/**
 * The GNSS view without a tile server: the track and the current fix drawn as
 * SVG on a local equirectangular projection (x scaled by cos of the mean
 * latitude, so shapes keep their proportions at any latitude), with a lat/lon
 * grid at a round step, a scale bar of a round length, and the fix quality
 * (hdop, sats) and age beside it.
 */
import { isObject } from './api.js';
import { ago, h, replace } from './dom.js';

export interface Fix {
  lat: number;
  lon: number;
  hdop?: number;
  sats?: number;
  /** Unix ms. */
  tsMs: number;
}

/** A Location object (decisions 4) as a Fix, or undefined without lat/lon. */
export function fixOf(value: unknown, tsMs: number): Fix | undefined {
  if (!isObject(value) || typeof value['lat'] !== 'number' || typeof value['lon'] !== 'number') return undefined;
  const f: Fix = { lat: value['lat'], lon: value['lon'], tsMs };
  if (typeof value['hdop'] === 'number') f.hdop = value['hdop'];
  if (typeof value['sats'] === 'number') f.sats = value['sats'];
  return f;
}

const SVG = 'http://www.w3.org/2000/svg';
const metresPerDegree = 111_320;
const W = 640;
const H = 400;
const PAD = 36;

function svg(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** The round number (1, 2 or 5 x 10^n) nearest below `x`. */
export function roundStep(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  return [5, 2, 1].map((m) => m * p).find((s) => s <= x) ?? p;
}

export class TrackMap {
  readonly element: HTMLElement;
  private readonly canvas: SVGSVGElement;
  private readonly info: HTMLElement;
  private track: Fix[] = [];
  private readonly maxPoints = 20_000;

  constructor() {
    this.canvas = document.createElementNS(SVG, 'svg') as SVGSVGElement;
    this.canvas.setAttribute('viewBox', `0 0 ${W} ${H}`);
    this.canvas.setAttribute('class', 'track');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'GNSS track');
    this.info = h('p', { class: 'fix-info', 'aria-live': 'polite' }, 'no fix yet');
    this.element = h(
      'section',
      { class: 'gnss', 'aria-label': 'GNSS' },
      h('h3', {}, 'GNSS track'),
      this.canvas,
      this.info,
    );
  }

  setTrack(fixes: Fix[]): void {
    this.track = fixes.slice(-this.maxPoints);
    this.draw();
  }

  add(fix: Fix): void {
    const last = this.track[this.track.length - 1];
    if (last !== undefined && fix.tsMs <= last.tsMs) return;
    this.track.push(fix);
    if (this.track.length > this.maxPoints) this.track.shift();
    this.draw();
  }

  /** Refreshes the fix age. */
  tick(): void {
    this.describe();
  }

  get points(): number {
    return this.track.length;
  }

  private describe(): void {
    const f = this.track[this.track.length - 1];
    if (!f) return replace(this.info, 'no fix yet');
    replace(
      this.info,
      `fix ${f.lat.toFixed(6)}, ${f.lon.toFixed(6)} · hdop ${f.hdop ?? '?'} · sats ${f.sats ?? '?'} · `,
      h('span', { class: 'fix-age' }, ago(Date.now(), f.tsMs)),
    );
  }

  private draw(): void {
    replace(this.canvas);
    this.describe();
    if (this.track.length === 0) return;
    const lat0 = this.track.reduce((s, f) => s + f.lat, 0) / this.track.length;
    const k = Math.cos((lat0 * Math.PI) / 180);
    let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const f of this.track) {
      [minX, maxX] = [Math.min(minX, f.lon * k), Math.max(maxX, f.lon * k)];
      [minY, maxY] = [Math.min(minY, f.lat), Math.max(maxY, f.lat)];
    }
    const span = Math.max(maxX - minX, maxY - minY, 0.0005);
    const scale = Math.min((W - 2 * PAD) / span, (H - 2 * PAD) / span);
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    const px = (lon: number): number => W / 2 + (lon * k - cx) * scale;
    const py = (lat: number): number => H / 2 - (lat - cy) * scale;
    // The grid: a round step in degrees per axis, about 5 lines across (a degree of longitude is shorter).
    const latStep = roundStep(H / scale / 5);
    const lonStep = roundStep(W / scale / k / 5);
    const lonMin = (cx - W / 2 / scale) / k;
    const lonMax = (cx + W / 2 / scale) / k;
    const digits = (step: number): number => Math.max(0, -Math.floor(Math.log10(step)));
    for (let lon = Math.ceil(lonMin / lonStep) * lonStep; lon <= lonMax; lon += lonStep) {
      const x = px(lon);
      this.canvas.append(svg('line', { x1: x, y1: 0, x2: x, y2: H, class: 'grid' }));
      this.canvas.append(svg('text', { x: x + 2, y: H - 4, class: 'grid-label' }, lon.toFixed(digits(lonStep))));
    }
    const latMin = cy - H / 2 / scale;
    for (let lat = Math.ceil(latMin / latStep) * latStep; lat <= cy + H / 2 / scale; lat += latStep) {
      const y = py(lat);
      this.canvas.append(svg('line', { x1: 0, y1: y, x2: W, y2: y, class: 'grid' }));
      this.canvas.append(svg('text', { x: 2, y: y - 2, class: 'grid-label' }, lat.toFixed(digits(latStep))));
    }
    const points = this.track.map((f) => `${px(f.lon).toFixed(1)},${py(f.lat).toFixed(1)}`).join(' ');
    this.canvas.append(svg('polyline', { points, class: 'track-line', 'data-points': this.track.length }));
    const f = this.track[this.track.length - 1] as Fix;
    this.canvas.append(svg('circle', { cx: px(f.lon), cy: py(f.lat), r: 6, class: 'fix' }));
    // The scale bar: a round length near a quarter of the width.
    const metresPerPx = metresPerDegree / scale;
    const metres = roundStep((W / 4) * metresPerPx);
    const len = metres / metresPerPx;
    this.canvas.append(svg('rect', { x: W - PAD - len, y: 12, width: len, height: 5, class: 'scale-bar' }));
    const label = metres >= 1000 ? `${metres / 1000} km` : `${metres} m`;
    this.canvas.append(svg('text', { x: W - PAD - len, y: 32, class: 'scale-label' }, label));
  }
}
