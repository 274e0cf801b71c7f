/**
 * Headless Chromium for the dashboard's browser tests: Debian's `chromium`
 * (CI installs it with apt), driven by playwright-core through
 * `executablePath`. `findChromium()` says why it is absent, so the suite can
 * skip with that reason. A page records its console errors; tests assert none.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

/** The browser binary, from `CHROMIUM_PATH` or Debian's paths; a reason when there is none. */
export function findChromium(): { path: string } | { reason: string } {
  const wanted = process.env['CHROMIUM_PATH'];
  if (wanted !== undefined && wanted !== '') {
    return existsSync(wanted) ? { path: wanted } : { reason: `CHROMIUM_PATH=${wanted} does not exist` };
  }
  const path = candidates.find((p) => existsSync(p));
  return path !== undefined
    ? { path }
    : { reason: `no chromium at ${candidates.join(', ')} (apt-get install chromium, or set CHROMIUM_PATH)` };
}

export async function launch(path: string): Promise<Browser> {
  // --no-sandbox: CI and the dev machines run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: path, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

/** A new page whose console errors and uncaught exceptions are collected in `errors`. */
export async function openPage(
  browser: Browser,
  width = 1200,
  height = 900,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

/** `q`-th percentile (0..100) of `values`, nearest rank. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1))] ?? NaN;
}

/** The little of the DOM that in-page probes use; `globalThis as unknown as Win` inside `page.evaluate` bodies. */
export interface El {
  textContent: string | null;
  dataset: Record<string, string | undefined>;
  checked: boolean;
  labels?: { length: number } | null;
  getAttribute(name: string): string | null;
  closest(selector: string): El | null;
  querySelector(selector: string): El | null;
  click(): void;
}
export interface Win {
  document: {
    querySelector(selector: string): El | null;
    querySelectorAll(selector: string): ArrayLike<El> & Iterable<El>;
    getElementById(id: string): El | null;
    activeElement: El | null;
    documentElement: { scrollWidth: number };
  };
  sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  innerWidth: number;
  performance: {
    now(): number;
    getEntriesByType(type: string): Array<{ name: string; encodedBodySize: number }>;
  };
  requestAnimationFrame(callback: () => void): void;
  MutationObserver: new (callback: () => void) => {
    observe(target: El, options: { attributes: boolean; attributeFilter: string[] }): void;
    disconnect(): void;
  };
  marker?: number;
  seen?: string[];
}
