/**
 * The firmware routes (decisions 12; docs/service.md, "Firmware images"):
 * - `GET /firmware/<name>` (and HEAD): the image, to any valid token (device
 *   or admin), with `ETag` (its SHA-256), `Accept-Ranges: bytes`, one `Range`
 *   (206, 416), `If-Range` and `If-None-Match` (304) as range.ts decides.
 *   Concurrent downloads are bounded in total (slots.ts): 503 with
 *   `Retry-After` beyond.
 * - `GET /firmware`: the folder's images with size, SHA-256 and stored
 *   signature (admin; the dashboard picks an image from it).
 * Without a folder (`--firmware DIR` not given) an image is 404 naming the
 * option and the list is empty. Registered on
 * Fastify directly, not through routes.ts: the image is bytes, not JSON; the
 * OpenAPI document describes them from openapi.ts beside this file.
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireAdmin, type TokenTable } from '../auth.js';
import { notFound, ServiceError } from '../errors.js';
import type { FirmwareFolder } from './folder.js';
import { answerFor } from './range.js';
import type { DownloadSlots } from './slots.js';

export interface FirmwareRouteOptions {
  tokens: TokenTable;
  folder: FirmwareFolder | undefined;
  slots: DownloadSlots;
  retryAfterS: number;
}

/** One header's value as a string (a repeated header's first). */
function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function noFolder(): ServiceError {
  return notFound('this service serves no firmware folder (start it with --firmware DIR)');
}

async function sendImage(o: FirmwareRouteOptions, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  if (o.folder === undefined) throw noFolder();
  const name = (request.params as { name?: string }).name ?? '';
  const file = o.folder.resolve(name);
  if (file === undefined) throw notFound(`no image ${JSON.stringify(name.slice(0, 200))} in the firmware folder`);
  const etag = `"${await o.folder.sha256(file)}"`;
  const answer = answerFor(
    {
      range: header(request, 'range'),
      ifRange: header(request, 'if-range'),
      ifNoneMatch: header(request, 'if-none-match'),
    },
    file.size,
    etag,
  );
  void reply.header('ETag', etag).header('Accept-Ranges', 'bytes').header('Cache-Control', 'no-cache');
  if (answer.status === 304) return reply.code(304).send();
  if (answer.status === 416) {
    void reply.header('Content-Range', `bytes */${file.size}`);
    throw new ServiceError(
      'range',
      `the image has ${file.size} bytes; the range ${header(request, 'range')} is not in it`,
    );
  }
  const [start, end] = answer.status === 206 ? [answer.start, answer.end] : [0, file.size - 1];
  // A HEAD and an empty image send no bytes: they take no download slot.
  const release = request.method === 'HEAD' || end < start ? () => undefined : o.slots.acquire();
  if (release === undefined) {
    void reply.header('Retry-After', String(o.retryAfterS));
    throw new ServiceError('unavailable', `${o.slots.max} downloads are running; retry after ${o.retryAfterS} s`);
  }
  reply.raw.once('close', release);
  void reply.type('application/octet-stream').header('Content-Length', String(end - start + 1));
  if (answer.status === 206) void reply.code(206).header('Content-Range', `bytes ${start}-${end}/${file.size}`);
  if (request.method === 'HEAD') {
    // Fastify would answer an empty send with Content-Length 0: the headers go out as they are.
    reply.hijack();
    reply.raw.writeHead(reply.statusCode, reply.getHeaders() as Record<string, string>);
    reply.raw.end();
    return reply;
  }
  if (end < start) return reply.send(Buffer.alloc(0));
  return reply.send(createReadStream(file.path, { start, end }));
}

export function addFirmwareRoutes(app: FastifyInstance, o: FirmwareRouteOptions): void {
  const authenticate = async (request: FastifyRequest): Promise<void> => {
    request.principal = o.tokens.authenticate(request.raw);
  };
  app.route({
    method: 'GET',
    url: '/firmware/:name',
    onRequest: authenticate,
    handler: (request, reply) => sendImage(o, request, reply),
  });
  app.route({
    method: 'GET',
    url: '/firmware',
    onRequest: authenticate,
    handler: async (request, reply) => {
      if (request.principal !== null) requireAdmin(request.principal, 'list the firmware folder');
      // Without a folder the list is empty (a 404 here would be an error in every dashboard's console).
      if (o.folder === undefined) return reply.type('application/json; charset=utf-8').send('[]');
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(await o.folder.list()));
    },
  });
}
