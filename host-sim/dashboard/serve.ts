/**
 * The dashboard on a Node `http` server: one call in front of the API router.
 * `serveDashboard(req, res)` answers GET/HEAD of a dashboard path (with 304 on
 * a matching `If-None-Match`) and returns true; anything else returns false
 * untouched, so the API keeps its own 404/405 answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dashboardAsset, type DashboardAsset } from './assets.js';

export function serveDashboard(
  req: IncomingMessage,
  res: ServerResponse,
  lookup: (pathname: string) => DashboardAsset | undefined = dashboardAsset,
): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const q = (req.url ?? '/').indexOf('?');
  const pathname = q < 0 ? (req.url ?? '/') : (req.url ?? '/').slice(0, q);
  const a = lookup(pathname);
  if (a === undefined) return false;
  const headers = {
    'Cache-Control': a.cacheControl,
    ETag: a.etag,
    'X-Content-Type-Options': 'nosniff',
  };
  if (a.status === 200 && req.headers['if-none-match'] === a.etag) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  res.writeHead(a.status, { ...headers, 'Content-Type': a.contentType, 'Content-Length': a.body.length });
  res.end(req.method === 'HEAD' ? undefined : a.body);
  return true;
}
