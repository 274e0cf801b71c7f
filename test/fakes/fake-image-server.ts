/**
 * FakeHttp with firmware images: `GET /firmware/<name>` with `Range` (206,
 * Content-Range, ETag), properties/get from `properties`, and properties/set
 * recorded (`reported`: every fw-* write, in order, and merged into
 * `properties`). Faults a test sets: `drops` make the n-th image request
 * (from 0) fail with a network error; `cuts` answer a range shorter than its
 * Content-Range (a transfer cut midway); `status` answers a status for images;
 * `ignoreRange` answers 200 with the whole image. Portable (runs on XS).
 */
import { AgentError } from '../../src/errors.js';
import type { HttpRequest, HttpResponse } from '../../src/ports.js';
import { Paths } from '../../src/wire.js';
import { FakeHttp } from './fake-http.js';

export class FakeImageServer extends FakeHttp {
  readonly images = new Map<string, Uint8Array>();
  /** fw-running / fw-status writes, in order. */
  readonly reported: Array<Record<string, unknown>> = [];
  /** Image requests seen: their Range headers. */
  readonly ranges: string[] = [];
  /** Image request numbers (from 0) that fail with a network error. */
  readonly drops = new Set<number>();
  /** Image request numbers whose body is cut to the given byte count (shorter than its Content-Range). */
  readonly cuts = new Map<number, number>();
  /** Every image request answers this status when set. */
  imageStatus: number | undefined;
  ignoreRange = false;
  etag = '"v1"';
  /** properties/set answers this status when set. */
  setStatus: number | undefined;

  override async request(request: HttpRequest): Promise<HttpResponse> {
    const path = request.url.replace(/^[a-z]+:\/\/[^/]+/, '').split('?')[0] ?? '';
    if (path.startsWith('/firmware/')) return this.#image(request, path.slice('/firmware/'.length));
    if (request.method === 'POST' && path === Paths.propertiesSet) {
      this.requests.push(request);
      if (this.setStatus !== undefined) return { status: this.setStatus, headers: {}, body: '{}' };
      const { values } = JSON.parse(request.body ?? '{}') as { values: Record<string, unknown> };
      this.reported.push(values);
      this.properties = { ...(this.properties as object), ...values };
      return { status: 200, headers: {}, body: '{}' };
    }
    return super.request(request);
  }

  /** The fw-status values reported, in order. */
  get statuses(): unknown[] {
    return this.reported.map((v) => v['fw-status']);
  }

  #image(request: HttpRequest, name: string): HttpResponse {
    const n = this.ranges.length;
    this.ranges.push(request.headers['range'] ?? '');
    this.requests.push(request);
    if (this.drops.has(n)) throw new AgentError('network', 'fake: connection reset');
    const image = this.images.get(name);
    const headers: Record<string, string> = { etag: this.etag };
    if (this.imageStatus !== undefined) return { status: this.imageStatus, headers, body: '' };
    if (image === undefined) return { status: 404, headers, body: '' };
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers['range'] ?? '');
    if (range === null || this.ignoreRange) return { status: 200, headers, body: '', bytes: image.slice() };
    const first = Number(range[1]);
    const last = Math.min(range[2] === '' ? image.length - 1 : Number(range[2]), image.length - 1);
    if (first >= image.length)
      return { status: 416, headers: { 'content-range': `bytes */${image.length}` }, body: '' };
    let bytes = image.slice(first, last + 1);
    const cut = this.cuts.get(n);
    if (cut !== undefined) bytes = bytes.slice(0, Math.min(cut, bytes.length - 1));
    headers['content-range'] = `bytes ${first}-${last}/${image.length}`;
    return { status: 206, headers, body: '', bytes };
  }
}
