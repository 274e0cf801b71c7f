/**
 * Request validation for Fastify with two Ajv instances: query strings coerce
 * only between one value and a list (a repeated single-valued name is a 400),
 * bodies coerce nothing (a number is never read as a string). A failure
 * becomes one 400 detail naming the parameter or entry the way the handlers
 * do (`states[1].timestamp: expected ...`).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { badRequest, type ServiceError } from '../errors.js';

const options = { allErrors: false, verbose: true, strict: false, unicodeRegExp: true } as const;
const queryAjv = new Ajv({ ...options, coerceTypes: 'array' });
const bodyAjv = new Ajv({ ...options, coerceTypes: false });

/** Fastify's validatorCompiler: one compiled function per route and part. */
export function compileValidator(input: { schema: object; httpPart?: string }): ValidateFunction {
  return (input.httpPart === 'querystring' ? queryAjv : bodyAjv).compile(input.schema);
}

/** `/states/1/timestamp` as `states[1].timestamp` (the root is `root`). */
export function fieldPath(instancePath: string, root: string): string {
  if (instancePath === '') return root;
  let out = '';
  for (const part of instancePath.slice(1).split('/')) {
    const p = part.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(p) ? `[${p}]` : out === '' ? p : `.${p}`;
  }
  return out;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** One readable detail for the first Ajv error of a request part (`querystring` or `body`). */
export function validationProblem(errors: readonly ErrorObject[], part: string): ServiceError {
  // With anyOf, Ajv reports the branches first and the anyOf last: the last error names the whole.
  const e = errors.find((x) => x.keyword === 'anyOf') ?? errors[0];
  if (e === undefined) return badRequest(`${part}: invalid`);
  const at = fieldPath(e.instancePath, part);
  const shown = typeof e.data === 'number' && !Number.isFinite(e.data) ? String(e.data) : JSON.stringify(e.data);
  const got = e.data === undefined ? '' : `, got ${shown?.slice(0, 80) ?? String(e.data)}`;
  const described = (e.parentSchema as { description?: unknown } | undefined)?.description;
  const property = e.propertyName ?? (e.params as { propertyName?: string }).propertyName;
  if (property !== undefined) {
    const pattern = (e.parentSchema as { pattern?: string } | undefined)?.pattern ?? 'the property name pattern';
    return badRequest(`${at}.${property}: property names match ${pattern}`);
  }
  switch (e.keyword) {
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return badRequest(`${fieldPath(`${e.instancePath}/${missing}`, part)} is required`);
    }
    case 'type': {
      if (part === 'querystring' && Array.isArray(e.data)) {
        return badRequest(`${at}: expected one value, got ${e.data.length}`);
      }
      if (at === 'body') return badRequest('body: expected a JSON object');
      const type = String((e.params as { type: string | string[] }).type).split(',')[0] ?? 'value';
      return badRequest(`${at}: expected ${typeof described === 'string' ? described : article(type)}${got}`);
    }
    case 'maxItems':
      return badRequest(`${at}: at most ${(e.params as { limit: number }).limit} entries per request`);
    case 'maxLength':
      return badRequest(`${at}: longer than ${(e.params as { limit: number }).limit} characters`);
    default:
      break;
  }
  const what = typeof described === 'string' ? described : String(e.message);
  return badRequest(`${at}: expected ${what}${got}`);
}
