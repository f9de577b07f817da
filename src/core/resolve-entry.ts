import { resolve, type Resolved, type Translated } from './availability.ts';
import type { CatalogIndex } from './catalog-index.ts';
import { errors } from './errors.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
import { readContent, type ContentQuery, type Params } from './params.ts';
import { absolute, paths } from './urls.ts';
import type { BodyStore, EntryBody } from './types.ts';

/**
 * A post or page resolved in the query's language: what getPost, getPage and a post's citation
 * share. A language it is not available in is the translation-unavailable error, which links the
 * English page and the same API path (`apiPath`) with the English fallback.
 */
export function resolveRecord<T extends Translated>(index: CatalogIndex, record: T, slug: string, params: Params, apiPath: string): { query: ContentQuery; r: Resolved<T> } {
  const query = readContent(params);
  const r = resolve(record, query.lang, query.fallback, index.policy);
  const scope = index.catalog;
  if ('unavailable' in r) {
    throw errors.translationUnavailable(slug, query.lang, r.unavailable, absolute(scope, paths.post(scope, slug, DEFAULT_LANGUAGE)), absolute(scope, paths.api(scope, apiPath, { lang: query.lang, fallback: 'en' })));
  }
  return { query, r };
}

/** A resolved post or page (resolveRecord) with its body. */
export async function resolveEntry<T extends Translated>(index: CatalogIndex, bodies: BodyStore, record: T, slug: string, params: Params, apiPath: string): Promise<{ query: ContentQuery; r: Resolved<T>; body: EntryBody }> {
  const { query, r } = resolveRecord(index, record, slug, params, apiPath);
  const body = await bodies.get(slug, r.lang);
  if (!body) throw new Error(`bundle has no body for ${apiPath} in ${r.lang}`);
  return { query, r, body };
}
