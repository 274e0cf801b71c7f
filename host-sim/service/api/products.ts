/**
 * Products (spec 4.2): get, list, set. `products/set` accepts the identifier
 * as `product` or `entity` (decisions 6). Admin tokens only (decisions 7).
 */
import { requireAdmin } from '../auth.js';
import { setDetails, type Product } from '../catalog.js';
import type { ServiceContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { exclusive, type Params } from '../http/query.js';
import type { Router } from '../http/router.js';
import { listEntities } from './resolve.js';
import { productView } from './views.js';

function resolveProduct(context: ServiceContext, params: Params, a: string, b?: string): Product {
  const id = b === undefined ? { name: a, value: params.string(a) } : exclusive(params, a, b);
  if (id?.value === undefined) throw badRequest(`${b === undefined ? a : `${a} or ${b}`} is required`);
  const e = context.catalog.entities.get(id.value);
  if (!e) throw notFound(`${id.name}: unknown product "${id.value}"`);
  if (e.kind !== 'product') throw badRequest(`${id.name}: "${id.value}" is a ${e.kind}, expected a product`);
  return e;
}

export function addProductRoutes(router: Router, context: ServiceContext): void {
  router.add('GET', '/api/v1/products/get', (request) => {
    requireAdmin(request.principal, 'read products');
    return productView(resolveProduct(context, request.params, 'product'), request.baseUrl);
  });

  router.add('GET', '/api/v1/products/list', (request) => {
    requireAdmin(request.principal, 'list products');
    return listEntities(context.catalog, request.params, context.catalog.products).map((p) =>
      productView(p, request.baseUrl),
    );
  });

  router.add('POST', '/api/v1/products/set', (request) => {
    requireAdmin(request.principal, 'change products');
    const product = resolveProduct(context, request.params, 'product', 'entity');
    // Types and non-empty names are checked by the route's body schema (http/routes.ts).
    const { enabled, name } = request.params.raw('values') as { enabled?: boolean; name?: string };
    if (setDetails(product, { enabled, name })) context.saveProduct(product);
    return {};
  });
}
