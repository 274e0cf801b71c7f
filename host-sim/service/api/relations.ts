/**
 * Entity relations (spec 4.3): get, insert, delete, update. A device token may
 * read its own device's relations; changing the tree needs an admin token. The
 * tree stays a tree: no self-parent, no cycle.
 */
import { requireAdmin } from '../auth.js';
import type { ServiceContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import type { Router } from '../http/router.js';
import { notOwnDevice, resolveEntity } from './resolve.js';
import { summaryView } from './views.js';

export function addRelationRoutes(router: Router, context: ServiceContext): void {
  const { catalog } = context;

  const checkLink = (entity: string, parent: string, param: string): void => {
    if (entity === parent) throw badRequest(`${param}: an entity cannot be its own parent`);
    if (catalog.isAncestor(entity, parent))
      throw badRequest(`${param}: "${parent}" is below "${entity}"; that would make a cycle`);
  };

  router.add('GET', '/api/v1/entities/relations/get', (request) => {
    if (request.principal.role === 'device' && request.params.string('entity') !== request.principal.device)
      throw notOwnDevice('entity'); // before the lookup: the same 403 whether the entity exists or not
    const e = resolveEntity(catalog, request.params, 'entity');
    return {
      parents: catalog.parents(e.uid).map((p) => summaryView(p, request.baseUrl)),
      children: catalog.children(e.uid).map((p) => summaryView(p, request.baseUrl)),
    };
  });

  router.add('POST', '/api/v1/entities/relations/insert', (request) => {
    requireAdmin(request.principal, 'change relations');
    const e = resolveEntity(catalog, request.params, 'entity');
    const parent = resolveEntity(catalog, request.params, 'parentEntity');
    if (!catalog.hasRelation(e.uid, parent.uid)) {
      checkLink(e.uid, parent.uid, 'parentEntity');
      catalog.link(e.uid, parent.uid);
      context.saveRelation(e.uid, parent.uid, true);
    }
    return {};
  });

  router.add('POST', '/api/v1/entities/relations/delete', (request) => {
    requireAdmin(request.principal, 'change relations');
    const e = resolveEntity(catalog, request.params, 'entity');
    const parent = resolveEntity(catalog, request.params, 'parentEntity');
    if (!catalog.hasRelation(e.uid, parent.uid))
      throw notFound(`no relation from "${e.uid}" to parent "${parent.uid}"`);
    if (e.kind === 'device' && e.product === parent) throw badRequest('parentEntity: a device stays below its product');
    catalog.unlink(e.uid, parent.uid);
    context.saveRelation(e.uid, parent.uid, false);
    return {};
  });

  router.add('POST', '/api/v1/entities/relations/update', (request) => {
    requireAdmin(request.principal, 'change relations');
    const e = resolveEntity(catalog, request.params, 'entity');
    const from = resolveEntity(catalog, request.params, 'fromParentEntity');
    const to = resolveEntity(catalog, request.params, 'toParentEntity');
    if (!catalog.hasRelation(e.uid, from.uid)) throw notFound(`no relation from "${e.uid}" to parent "${from.uid}"`);
    if (e.kind === 'device' && e.product === from)
      throw badRequest('fromParentEntity: a device stays below its product');
    if (from !== to) {
      catalog.unlink(e.uid, from.uid);
      try {
        checkLink(e.uid, to.uid, 'toParentEntity');
      } catch (err) {
        catalog.link(e.uid, from.uid);
        throw err;
      }
      catalog.link(e.uid, to.uid);
      context.saveRelation(e.uid, from.uid, false);
      context.saveRelation(e.uid, to.uid, true);
    }
    return {};
  });
}
