/**
 * Starting a firmware update (docs/ota.md, "Rolling out"; admin only): pick an
 * image of the service's firmware folder (`GET /firmware`: name, size,
 * SHA-256 and the signature stored beside it as NAME.sig), check the version
 * and the signature, and write the four desired properties (`fw-version`,
 * `fw-url`, `fw-sha256`, `fw-sig`) to every device selected in the list, one
 * `properties/set` each: the board acts on the Notify. The result names the
 * devices it started on and each one it failed on, with the reason.
 */
import { type Api, type DeviceInfo, type FirmwareImage } from './api.js';
import { h, replace } from './dom.js';

/** What a board accepts as `fw-version` ("=" first pins a lower version; docs/ota.md). */
const versionPattern = /^=?[\w.+-]{1,64}$/;
const sigPattern = /^[A-Za-z0-9+/]{10,}={0,2}$/;

function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

export class FirmwarePanel {
  readonly element: HTMLElement;
  private images: FirmwareImage[] = [];
  private readonly select = h('select', { id: 'fw-image' });
  private readonly version = h('input', { id: 'fw-version', type: 'text', autocomplete: 'off', placeholder: '1.3.0' });
  private readonly base = h('input', { id: 'fw-base', type: 'url', autocomplete: 'off' });
  private readonly sig = h('input', { id: 'fw-sig', type: 'text', autocomplete: 'off', placeholder: 'base64' });
  private readonly result = h('p', { class: 'fw-result', role: 'status' });
  private readonly form: HTMLFormElement;

  constructor(
    private readonly api: Api,
    /** The devices selected in the list. */
    private readonly selected: () => DeviceInfo[],
  ) {
    this.base.value = `${location.origin}/firmware`;
    this.select.addEventListener('change', () => this.picked());
    this.form = h(
      'form',
      { class: 'fw-form' },
      h('label', { for: 'fw-image' }, 'Image'),
      this.select,
      h('label', { for: 'fw-version' }, 'Version'),
      this.version,
      h('label', { for: 'fw-base' }, 'Folder URL (as the boards reach it)'),
      this.base,
      h('label', { for: 'fw-sig' }, 'Signature (fw-sig)'),
      this.sig,
      h('button', { type: 'submit', id: 'fw-start' }, 'Update selected devices'),
    );
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.start();
    });
    this.element = h(
      'section',
      { class: 'firmware', 'aria-label': 'Firmware update' },
      h('h2', {}, 'Firmware update'),
      this.form,
      this.result,
    );
  }

  async load(): Promise<void> {
    this.images = await this.api.firmwareImages();
    replace(
      this.select,
      h(
        'option',
        { value: '' },
        this.images.length === 0 ? 'no image (or no folder: npm run service -- --firmware DIR)' : 'choose an image',
      ),
      ...this.images.map((i) =>
        h(
          'option',
          { value: i.name },
          `${i.name} (${kb(i.size)}, sha256 ${i.sha256.slice(0, 12)}…${i.sig ? ', signed' : ''})`,
        ),
      ),
    );
  }

  private picked(): void {
    const image = this.images.find((i) => i.name === this.select.value);
    this.sig.value = image?.sig ?? '';
    const v = /(\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?)\.[A-Za-z]+$/.exec(image?.name ?? '');
    if (v?.[1] !== undefined) this.version.value = v[1];
    replace(
      this.result,
      image && !image.sig ? 'No NAME.sig beside this image: paste fw-sig from npm run firmware -- sign.' : '',
    );
  }

  private async start(): Promise<void> {
    const image = this.images.find((i) => i.name === this.select.value);
    const devices = this.selected();
    const version = this.version.value.trim();
    const sig = this.sig.value.trim();
    const base = this.base.value.trim().replace(/\/+$/, '');
    const problem =
      image === undefined
        ? 'Choose an image.'
        : devices.length === 0
          ? 'Select the devices to update in the list.'
          : !versionPattern.test(version)
            ? 'Version: 1 to 64 of A-Z a-z 0-9 _ . + - ("=" first to pin a lower one).'
            : !sigPattern.test(sig)
              ? 'Signature: the base64 fw-sig that npm run firmware -- sign printed.'
              : !/^https?:\/\/[^\s/?#]+/.test(base)
                ? 'Folder URL: an http(s) URL.'
                : '';
    if (problem !== '' || image === undefined) return replace(this.result, problem);
    const values = {
      'fw-version': version,
      'fw-url': `${base}/${encodeURIComponent(image.name)}`,
      'fw-sha256': image.sha256,
      'fw-sig': sig,
    };
    replace(this.result, `Starting on ${devices.length} device(s)…`);
    const failed: string[] = [];
    for (const d of devices) {
      await this.api.setProperties(d.uid, values).catch((e: unknown) => {
        failed.push(`${d.key} (${e instanceof Error ? e.message : String(e)})`);
      });
    }
    const started = devices.length - failed.length;
    replace(
      this.result,
      `Update to ${version} started on ${started} device(s).`,
      failed.length > 0 ? ` Failed on ${failed.join(', ')}.` : '',
    );
  }
}
