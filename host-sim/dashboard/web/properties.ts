/**
 * The device's properties (spec 2.5): one labelled input per property, typed
 * by its current value (checkbox, number, text); Save sends only the changed
 * ones (`properties/set`). A `properties` Notify updates the inputs live,
 * except one the user is editing.
 */
import type { Api, Scalar } from './api.js';
import { h, replace } from './dom.js';

export class PropertiesPanel {
  readonly element: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly status: HTMLElement;
  private readonly inputs = new Map<string, HTMLInputElement>();
  private values: Record<string, Scalar> = {};

  constructor(
    private readonly api: Api,
    private readonly device: string,
  ) {
    this.status = h('span', { class: 'props-status', role: 'status' });
    this.form = h('form', { class: 'props' });
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.save();
    });
    this.element = h(
      'section',
      { class: 'properties', 'aria-label': 'Properties' },
      h('h3', {}, 'Properties'),
      this.form,
    );
  }

  set(values: Record<string, Scalar>): void {
    this.values = { ...values };
    this.inputs.clear();
    const rows = Object.keys(values)
      .sort()
      .map((name) => {
        const v = values[name] as Scalar;
        const id = `prop-${name}`;
        const input =
          typeof v === 'boolean'
            ? h('input', { type: 'checkbox', id, name, checked: v })
            : h('input', { type: typeof v === 'number' ? 'number' : 'text', id, name, value: String(v), step: 'any' });
        this.inputs.set(name, input);
        return h('div', { class: 'prop' }, h('label', { for: id }, name), input);
      });
    replace(this.form, ...rows, h('button', { type: 'submit' }, 'Save properties'), ' ', this.status);
  }

  /** Changed values from a Notify. */
  update(changed: Record<string, unknown>): void {
    for (const [name, v] of Object.entries(changed)) {
      if (typeof v !== 'boolean' && typeof v !== 'number' && typeof v !== 'string') continue;
      const input = this.inputs.get(name);
      if (!input || typeof this.values[name] !== typeof v) {
        this.set({ ...this.values, [name]: v });
        continue;
      }
      this.values[name] = v;
      if (document.activeElement === input) continue;
      if (typeof v === 'boolean') input.checked = v;
      else input.value = String(v);
    }
  }

  private read(name: string, input: HTMLInputElement): Scalar | undefined {
    const old = this.values[name];
    if (typeof old === 'boolean') return input.checked;
    if (typeof old === 'number') {
      const n = Number(input.value);
      return input.value.trim() !== '' && Number.isFinite(n) ? n : undefined;
    }
    return input.value;
  }

  private async save(): Promise<void> {
    const changed: Record<string, Scalar> = {};
    for (const [name, input] of this.inputs) {
      const v = this.read(name, input);
      if (v === undefined) return replace(this.status, `${name}: not a number`);
      if (v !== this.values[name]) changed[name] = v;
    }
    if (Object.keys(changed).length === 0) return replace(this.status, 'nothing changed');
    replace(this.status, 'saving…');
    try {
      await this.api.setProperties(this.device, changed);
      Object.assign(this.values, changed);
      replace(this.status, `saved ${Object.keys(changed).join(', ')}`);
    } catch (e) {
      replace(this.status, `failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
