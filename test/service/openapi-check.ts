/**
 * Validates a response of the service against the generated OpenAPI document
 * (Ajv, JSON Schema 2020-12): the operation must document the status and the
 * media type, and the body must match the schema. The service test helpers
 * (helpers.ts) pass every API response they receive through `checkResponse`,
 * so the whole service suite checks the document; a mismatch throws.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { generateOpenApi } from '../../host-sim/service/http/openapi.js';
import { isApiPath } from '../../host-sim/service/http/router.js';

type Obj = Record<string, unknown>;
export const openApiDoc = generateOpenApi() as {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, Obj> }>>;
  components: { schemas: Obj; responses: Record<string, Obj> };
};

/** Local refs resolve against the registered document (`openapi#/components/...`). */
function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (typeof value !== 'object' || value === null) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value))
    out[k] = k === '$ref' && typeof v === 'string' ? `openapi${v}` : rebase(v);
  return out;
}

export const openApiAjv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
openApiAjv.addSchema({ $id: 'openapi', components: rebase(openApiDoc.components) });
const compiled = new Map<string, ValidateFunction>();

/** Responses checked so far (the suite asserts it is not zero). */
export const checked = { count: 0 };

function resolve(o: Obj): Obj {
  const ref = o['$ref'];
  if (typeof ref !== 'string') return o;
  return openApiDoc.components.responses[ref.split('/').pop() as string] as Obj;
}

/**
 * Throws unless the response is documented and its body validates. Non-API
 * paths (the dashboard) are not part of the document and pass unchecked.
 */
export function checkResponse(method: string, url: string, status: number, contentType: string, body: unknown): void {
  const raw = url.split('?')[0] as string;
  if (!isApiPath(raw) || method === 'HEAD') return;
  // The one templated path: an image of the firmware folder.
  const path = /^\/firmware\/[^/]+$/.test(raw) ? '/firmware/{name}' : raw;
  const op = openApiDoc.paths[path]?.[method.toLowerCase()];
  // An undocumented route or method is answered with a 404/405 problem.
  const responses = op?.responses ?? {
    [String(status)]: { $ref: '#/components/responses/Problem400' },
  };
  if (op === undefined && status !== 404 && status !== 405) {
    throw new Error(`openapi: ${method} ${path} answered ${status} but is not documented`);
  }
  const documented = responses[String(status)];
  if (documented === undefined) throw new Error(`openapi: ${method} ${path} answered ${status}, not documented`);
  const type = contentType.split(';')[0]?.trim() ?? '';
  const content = resolve(documented)['content'] as Record<string, { schema?: Obj }> | undefined;
  if (content === undefined && body === undefined) return; // documented without a body (304)
  const media = content?.[type];
  if (media === undefined) throw new Error(`openapi: ${method} ${path} ${status}: ${type} is not documented`);
  if (media.schema === undefined) return;
  const key = `${method} ${path} ${status} ${type}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = openApiAjv.compile(rebase(media.schema) as Obj);
    compiled.set(key, validate);
  }
  if (!validate(body)) {
    throw new Error(
      `openapi: ${key}: ${openApiAjv.errorsText(validate.errors)}\n${JSON.stringify(body)?.slice(0, 500)}`,
    );
  }
  checked.count++;
}
