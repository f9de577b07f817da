import type { CatalogIndex } from './catalog-index.ts';
import { citationForms, type CitationForms, type CslDate, type CslItem, type CslName } from './citation-styles.ts';
import { DEFAULT_LANGUAGE, language } from './languages.ts';
import type { Params } from './params.ts';
import { providerName, UNRECORDED_PROVIDER } from './provider-names.ts';
import { resolvePost } from './posts.ts';
import { meta, summary, type ResponseMeta, type Summary } from './shape.ts';

/**
 * How to cite a post in a language: one CSL-JSON item (the citeproc input schema, csl-data.json)
 * and the APA, MLA, Chicago and BibTeX forms made from it. Every surface answers with this: the
 * post page's "Cite this essay", GET /api/posts/{slug}/cite, GraphQL's citation, MCP's citation resource.
 */
export interface Citation extends CitationForms {
  csl: CslItem;
}

export interface CitationBody {
  attribution: string;
  data: Citation;
  meta: ResponseMeta;
}

/**
 * A person's name as CSL wants it: the last word is the family name ("Ines Calloway"); a single
 * word (a pen name, an organisation) stays whole.
 */
export function cslName(name: string): CslName {
  const words = name.trim().split(/\s+/);
  return words.length < 2 ? { literal: name.trim() } : { family: words.at(-1)!, given: words.slice(0, -1).join(' ') };
}

const cslDate = (iso: string): CslDate => {
  const d = new Date(iso);
  return { 'date-parts': [[d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]] };
};

/** The CSL-JSON item of a post as `data` shows it (`englishTitle`: the original's, for a translation). */
export function cslItem(siteName: string, data: Summary, englishTitle: string): CslItem {
  const translation = data.is_translation ? data.translation : undefined;
  const issued = cslDate(data.date);
  const item: CslItem = {
    id: data.language === DEFAULT_LANGUAGE ? data.slug : `${data.slug}-${data.language}`,
    type: 'post-weblog',
    title: data.title,
    author: [cslName(data.author)],
    issued,
    URL: data.url,
    language: language(data.language).html_lang,
    'container-title': siteName,
    ...(data.summary ? { abstract: data.summary } : {}),
  };
  if (!translation) return item;
  const kind = translation.automated ? 'Machine translation' : 'Translation';
  return {
    ...item,
    // A model nobody recorded is no one to name as translator: the note says what it was.
    ...(translation.provider && translation.provider !== UNRECORDED_PROVIDER ? { translator: [{ literal: providerName(translation.provider, DEFAULT_LANGUAGE) }] } : {}),
    'original-title': englishTitle,
    'original-date': issued,
    note: `${kind}${translation.provider ? ` (${providerName(translation.provider, DEFAULT_LANGUAGE)})` : ''} of ${data.english_url}`,
    custom: { 'original-language': DEFAULT_LANGUAGE, 'original-URL': data.english_url, 'machine-translation': translation.automated },
  };
}

export function citation(siteName: string, data: Summary, englishTitle: string): Citation {
  const csl = cslItem(siteName, data, englishTitle);
  return { csl, ...citationForms(csl) };
}

/** GET /api/posts/{slug}/cite: the post resolved as its detail is (same errors), cited. */
export function citePost(index: CatalogIndex, slug: string, params: Params): CitationBody {
  const { query, resolved } = resolvePost(index, slug, params, `/api/posts/${slug}/cite`);
  const scope = index.catalog;
  const available = index.available.get(resolved.post)!;
  const data = summary(scope, resolved, available);
  return {
    attribution: scope.site.attribution,
    data: citation(scope.site.name, data, resolved.post.entries[DEFAULT_LANGUAGE]!.title),
    meta: meta(query.lang, [data], available),
  };
}
