/**
 * The OpenAPI path items of the firmware routes (routes.ts), merged into the
 * generated document (http/openapi.ts). The image is bytes, so its 200 and
 * 206 answers are `application/octet-stream` without a schema; the problems
 * reuse the document's shared responses, plus 416 and a 503 with
 * `Retry-After` of their own.
 */
import { defaultMaxDownloads } from './slots.js';

const ref = (status: string): Record<string, string> => ({ $ref: `#/components/responses/Problem${status}` });
const problem = (description: string, headers: Record<string, unknown> = {}): Record<string, unknown> => ({
  description,
  ...(Object.keys(headers).length > 0 ? { headers } : {}),
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});
const header = (description: string, type = 'string'): Record<string, unknown> => ({ description, schema: { type } });
const imageHeaders = {
  ETag: header("the image's SHA-256 in hex, quoted (a strong ETag)"),
  'Accept-Ranges': header('bytes'),
  'Content-Length': header('bytes in this answer', 'integer'),
};
const bytes = { 'application/octet-stream': {} };

export const firmwarePaths: Readonly<Record<string, unknown>> = {
  '/firmware/{name}': {
    get: {
      summary:
        'a firmware image of the --firmware folder, to any valid token; one Range, If-Range, If-None-Match ' +
        `(concurrent downloads bounded in total, default ${defaultMaxDownloads})`,
      operationId: 'get/firmware/{name}',
      parameters: [
        {
          name: 'name',
          in: 'path',
          required: true,
          description: 'the image file name: one path segment, not starting with a dot',
          schema: { type: 'string', pattern: '^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$' },
        },
        { name: 'Range', in: 'header', required: false, schema: { type: 'string', examples: ['bytes=65536-'] } },
        { name: 'If-Range', in: 'header', required: false, schema: { type: 'string' } },
        { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'The whole image', headers: imageHeaders, content: bytes },
        '206': {
          description: 'The requested range of the image',
          headers: { ...imageHeaders, 'Content-Range': header('bytes FIRST-LAST/SIZE') },
          content: bytes,
        },
        '304': { description: "If-None-Match names the image's current ETag", headers: { ETag: imageHeaders.ETag } },
        '400': ref('400'),
        '401': ref('401'),
        '404': problem('No such image in the folder (or a name outside it), or no --firmware folder'),
        '408': ref('408'),
        '416': problem('The range starts at or past the end of the image', {
          'Content-Range': header('bytes */SIZE'),
        }),
        '431': ref('431'),
        '500': ref('500'),
        '503': problem('Every download slot is held (or the service is closing)', {
          'Retry-After': header('seconds to wait before asking again', 'integer'),
        }),
      },
    },
  },
  '/firmware': {
    get: {
      summary: 'the images of the --firmware folder with size, SHA-256 and the signature stored as NAME.sig (admin)',
      operationId: 'get/firmware',
      responses: {
        '200': {
          description: 'The images by name (empty without a --firmware folder)',
          content: {
            'application/json': {
              schema: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['name', 'size', 'sha256'],
                  properties: {
                    name: { type: 'string' },
                    size: { type: 'integer', minimum: 0 },
                    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
                    sig: { type: 'string', description: 'base64 DER ECDSA P-256 signature (fw-sig)' },
                  },
                  additionalProperties: false,
                },
              },
            },
          },
        },
        '400': ref('400'),
        '401': ref('401'),
        '403': ref('403'),
        '408': ref('408'),
        '431': ref('431'),
        '500': ref('500'),
        '503': ref('503'),
      },
    },
  },
};

/** The methods of a firmware path, for 405 `Allow` ('' when `path` is not one). */
export function firmwareAllowedMethods(path: string): string {
  return /^\/firmware(\/[^/]+)?$/.test(path) ? 'GET, HEAD' : '';
}
