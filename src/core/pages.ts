import { resolveEntry } from './resolve-entry.ts';
import type { CatalogIndex } from './catalog-index.ts';
import { errors } from './errors.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
import { SLUG_PATTERN, type Params } from './params.ts';
import { detail, meta, translationMeta, type ResponseMeta, type Summary } from './shape.ts';
import { absolute, paths } from './urls.ts';
import type { BodyStore, EntryBody, PageRecord } from './types.ts';

/** A standalone page in one language: a post's detail without what only posts have (date, author, terms, image). */
export type PageSummary = Pick<Summary, 'slug' | 'title' | 'modified' | 'summary' | 'url' | 'language' | 'is_translation' | 'translations_available' | 'english_url' | 'translation'>;
export type PageDetail = PageSummary & EntryBody;

export interface PageSingle {
  attribution: string;
  data: PageDetail;
  meta: ResponseMeta;
}

export function findPage(index: CatalogIndex, slug: string): PageRecord {
  const page = SLUG_PATTERN.test(slug) ? index.pagesBySlug.get(slug) : undefined;
  if (!page) throw errors.notFound('Page', slug);
  return page;
}

/** A page in the query's language, by the same translation rule as a post (resolve). */
export async function getPage(index: CatalogIndex, bodies: BodyStore, slug: string, params: Params): Promise<PageSingle> {
  const page = findPage(index, slug);
  const { query, r, body } = await resolveEntry(index, bodies, page, slug, params, `/api/pages/${slug}`);
  const scope = index.catalog;
  const available = index.pageLanguages.get(page)!;
  const modified = r.entry.modified ?? page.modified;
  const translation = translationMeta(r);
  const summary: PageSummary = {
    slug,
    title: r.entry.title,
    ...(modified ? { modified } : {}),
    ...(r.entry.summary ? { summary: r.entry.summary } : {}),
    url: absolute(scope, paths.post(scope, slug, r.lang)),
    language: r.lang,
    is_translation: r.lang !== DEFAULT_LANGUAGE,
    translations_available: available.filter((code) => code !== r.lang),
    english_url: absolute(scope, paths.post(scope, slug, DEFAULT_LANGUAGE)),
    ...(translation ? { translation } : {}),
  };
  const data = detail(summary, body);
  return { attribution: scope.site.attribution, data, meta: meta(query.lang, [data], available) };
}
