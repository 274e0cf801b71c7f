/**
 * One channel's tile: its latest `.reported` (value with unit, or the errno by
 * name), its age, and for writable channels the control of its `.desired`
 * side. A write shows "pending" until the `.reported` echo arrives; the echo
 * confirms it, or shows the device's errno when it refused; no echo within
 * `echoTimeoutMs` says so.
 */
import type { Api, Scalar, SeriesRecord } from './api.js';
import { formatErrno, formatValue, type ChannelView } from './channels.js';
import { ago, h, replace } from './dom.js';

export type WriteState =
  | { kind: 'idle' }
  | { kind: 'pending'; value: Scalar; sinceMs: number }
  | { kind: 'confirmed'; latencyMs: number }
  | { kind: 'refused'; errno: number }
  | { kind: 'failed'; message: string };

export const echoTimeoutMs = 10_000;

export class ChannelTile {
  readonly element: HTMLElement;
  private readonly valueEl: HTMLElement;
  private readonly ageEl: HTMLElement;
  private readonly stateEl: HTMLElement;
  private readonly desiredEl: HTMLElement;
  private input: HTMLInputElement | undefined;
  private state: WriteState = { kind: 'idle' };
  private lastMs: number | undefined;
  private timer: number | undefined;

  constructor(
    readonly channel: ChannelView,
    private readonly api: Api,
    private readonly device: string,
  ) {
    const id = `ch-${channel.key}`;
    this.valueEl = h('output', { class: 'value', id: `${id}-value`, 'aria-live': 'polite' }, '—');
    this.ageEl = h('span', { class: 'age' });
    this.stateEl = h('span', { class: 'write-state', role: 'status' });
    this.desiredEl = h('span', { class: 'desired' });
    this.element = h(
      'article',
      { class: 'tile', 'data-channel': channel.key, 'aria-labelledby': `${id}-name` },
      h('h4', { id: `${id}-name` }, channel.name),
      this.valueEl,
      this.ageEl,
      this.controlEl(id),
    );
  }

  private controlEl(id: string): HTMLElement | null {
    const c = this.channel.control;
    if (c.kind === 'none') return null;
    let input: HTMLInputElement;
    if (c.kind === 'switch') {
      input = h('input', { type: 'checkbox', role: 'switch', id: `${id}-desired`, class: 'switch' });
      input.addEventListener('change', () => void this.write(input.checked));
    } else {
      input = h('input', {
        type: c.slider ? 'range' : 'number',
        id: `${id}-desired`,
        min: c.min,
        max: c.max,
        step: c.step,
        value: c.min ?? 0,
      });
      input.addEventListener('change', () => {
        const v = Number(input.value);
        if (input.value.trim() === '' || !Number.isFinite(v))
          return this.show({ kind: 'failed', message: 'not a number' });
        if ((c.min !== undefined && v < c.min) || (c.max !== undefined && v > c.max)) {
          return this.show({ kind: 'failed', message: `outside ${c.min} .. ${c.max}` });
        }
        void this.write(v);
      });
    }
    this.input = input;
    return h(
      'div',
      { class: 'control' },
      h('label', { for: `${id}-desired` }, 'Set '),
      input,
      ' ',
      this.desiredEl,
      ' ',
      this.stateEl,
    );
  }

  /** Writes `<key>.desired`; the echo settles it (see `reported`). */
  async write(value: Scalar): Promise<void> {
    this.show({ kind: 'pending', value, sinceMs: performance.now() });
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      if (this.state.kind === 'pending') this.show({ kind: 'failed', message: 'no echo from the device' });
    }, echoTimeoutMs);
    try {
      await this.api.writeDesired(this.device, this.channel.key, value);
    } catch (e) {
      this.show({ kind: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  }

  /** A `.reported` record of this channel (from a read or a Notify). */
  reported(r: SeriesRecord): void {
    if (this.lastMs !== undefined && r.tsMs < this.lastMs) return;
    this.lastMs = r.tsMs;
    const s = this.state;
    if (r.error !== undefined) {
      this.valueEl.textContent = formatErrno(r.error);
      this.valueEl.classList.add('error');
      if (s.kind === 'pending') this.show({ kind: 'refused', errno: r.error });
    } else {
      this.valueEl.textContent = formatValue(r.value, this.channel.unit);
      this.valueEl.classList.remove('error');
      if (s.kind === 'pending' && this.echoes(s.value, r.value)) {
        this.show({ kind: 'confirmed', latencyMs: performance.now() - s.sinceMs });
      }
      this.reflect(r.value);
    }
    this.tick();
  }

  /** A `.desired` record: shown beside the control, which follows it unless a write is pending. */
  desired(r: SeriesRecord): void {
    if (r.value === undefined) return;
    this.desiredEl.textContent = `desired ${formatValue(r.value, this.channel.unit)}`;
  }

  tick(): void {
    this.ageEl.textContent = this.lastMs === undefined ? '' : ago(Date.now(), this.lastMs);
  }

  private echoes(wanted: Scalar, got: unknown): boolean {
    if (typeof wanted === 'number' && typeof got === 'number') {
      const c = this.channel.control;
      const tolerance = c.kind === 'number' && typeof c.step === 'number' ? c.step : 1e-9;
      return Math.abs(wanted - got) <= tolerance;
    }
    return wanted === got;
  }

  private reflect(value: unknown): void {
    const input = this.input;
    if (!input || this.state.kind === 'pending' || document.activeElement === input) return;
    if (input.type === 'checkbox' && typeof value === 'boolean') input.checked = value;
    else if (input.type !== 'checkbox' && typeof value === 'number') input.value = String(value);
  }

  private show(next: WriteState): void {
    this.state = next;
    this.element.dataset['write'] = next.kind;
    const text =
      next.kind === 'pending'
        ? 'pending…'
        : next.kind === 'confirmed'
          ? `confirmed (${Math.round(next.latencyMs)} ms)`
          : next.kind === 'refused'
            ? `refused: ${formatErrno(next.errno)}`
            : next.kind === 'failed'
              ? `failed: ${next.message}`
              : '';
    replace(this.stateEl, text);
    if (next.kind !== 'pending') window.clearTimeout(this.timer);
  }
}
