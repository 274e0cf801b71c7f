/**
 * The dashboard's static files, framework-agnostic: `dashboardAsset(pathname)`
 * answers `{ status, contentType, cacheControl, etag, body }` for a path the
 * dashboard owns, or `undefined` so the caller's API routes take it.
 *
 * The files are the output of `host-sim/dashboard/build.mjs` (run by
 * `npm run build`) under build/dashboard/: `index.html`, served at `/`, which
 * is revalidated on every load (`no-cache` + ETag), and content-hashed files
 * under `/dashboard/`, cached for a year as immutable. Only names listed at
 * load time are served, so no path can reach outside that folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DashboardAsset {
  status: number;
  contentType: string;
  cacheControl: string;
  /** A strong validator of `body` (quoted), for `If-None-Match`. */
  etag: string;
  body: Buffer;
}

/** Where the build writes the dashboard: build/dashboard beside build/host-sim. */
export const defaultDashboardDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dashboard');

/** URL prefix of the hashed files. */
export const assetPrefix = '/dashboard/';

const types: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const immutable = 'public, max-age=31536000, immutable';
const revalidate = 'no-cache';

function asset(body: Buffer, name: string, cacheControl: string, status = 200): DashboardAsset {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { status, contentType: types[extname(name)] ?? 'application/octet-stream', cacheControl, etag, body };
}

/** Reads the built dashboard of `dir` once; the result maps a pathname to its asset. */
export function loadDashboard(dir: string = defaultDashboardDir): (pathname: string) => DashboardAsset | undefined {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) {
    const missing = asset(
      Buffer.from('The dashboard is not built: run `npm run build` (it bundles host-sim/dashboard/web).\n'),
      'missing.txt',
      revalidate,
      503,
    );
    missing.contentType = 'text/plain; charset=utf-8';
    return (pathname) => (pathname === '/' || pathname === '/index.html' ? missing : undefined);
  }
  const files = new Map<string, DashboardAsset>();
  const page = asset(readFileSync(index), 'index.html', revalidate);
  files.set('/', page);
  files.set('/index.html', page);
  const hashed = join(dir, 'assets');
  if (existsSync(hashed)) {
    for (const name of readdirSync(hashed)) {
      files.set(`${assetPrefix}${name}`, asset(readFileSync(join(hashed, name)), name, immutable));
    }
  }
  return (pathname) => files.get(pathname);
}

let shared: ((pathname: string) => DashboardAsset | undefined) | undefined;

/** The asset of `pathname` from the default build folder (read on first use). */
export function dashboardAsset(pathname: string): DashboardAsset | undefined {
  shared ??= loadDashboard();
  return shared(pathname);
}
