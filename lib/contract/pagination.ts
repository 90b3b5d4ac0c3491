/**
 * One page of a list, as every list of the API and the console answers it (docs/api.md "Conventions"):
 * `items` of the page, `total` matching records, `page` (from 1), `limit` (page size) and `pages`
 * (ceil(total / limit); 0 when nothing matches).
 */
export type Page<T> = { items: T[]; total: number; page: number; limit: number; pages: number };

/** Builds the page envelope for `items` out of `total` matching records, for the query's page and limit. */
export function pageOf<T>(items: T[], total: number, q: { page: number; limit: number }): Page<T> {
  return { items, total, page: q.page, limit: q.limit, pages: Math.ceil(total / q.limit) };
}
