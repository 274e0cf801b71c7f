/**
 * The list rules shared by `devices/list` and `products/list` (spec 4.1-4.2,
 * decisions 6): optional parent `entity`, `q` as a case-insensitive substring
 * of name, key or a parent's name, ordered by name then uid, then `i` offset
 * and `l` limit.
 */
import type { Catalog, Entity } from '../catalog.js';
import { notFound } from '../http/problem.js';
import { optIndex, type Params } from '../http/query.js';

export function listEntities<T extends Entity>(catalog: Catalog, p: Params, all: readonly T[]): T[] {
  const parent = p.string('entity');
  const q = p.string('q')?.toLowerCase();
  const offset = optIndex(p, 'i') ?? 0;
  const limit = optIndex(p, 'l');
  let items = [...all];
  if (parent !== undefined) {
    if (!catalog.entities.has(parent)) throw notFound(`entity: unknown entity "${parent}"`);
    items = items.filter((e) => e.uid !== parent && catalog.isAncestor(parent, e.uid));
  }
  if (q !== undefined && q !== '') {
    const hit = (s: string | undefined): boolean => s !== undefined && s.toLowerCase().includes(q);
    items = items.filter(
      (e) => hit(e.name) || hit('key' in e ? e.key : undefined) || catalog.parents(e.uid).some((pe) => hit(pe.name)),
    );
  }
  items.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : x.uid < y.uid ? -1 : x.uid > y.uid ? 1 : 0));
  return items.slice(offset, limit === undefined ? undefined : offset + limit);
}
