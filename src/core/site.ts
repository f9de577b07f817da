import { DEFAULT_LANGUAGE, LANGUAGES } from './languages.ts';
import type { CatalogIndex } from './catalog-index.ts';
import { readLang, type Params } from './params.ts';
import { absolute, paths } from './urls.ts';
import type { Product, SiteSettings } from './types.ts';

export interface SiteInfo {
  name: string;
  description: string;
  author: string;
  url: string;
  post_count: number;
  attribution: string;
}

export function siteInfo(index: CatalogIndex, params: Params): SiteInfo {
  const { lang } = readLang(params);
  const { site } = index.catalog;
  return {
    name: site.name,
    description: site.descriptions[lang] ?? site.description,
    author: site.author,
    url: absolute(index.catalog, paths.home(index.catalog, lang)),
    post_count: index.catalog.posts.length,
    attribution: site.attribution,
  };
}

export interface LanguageInfo {
  code: string;
  native_name: string;
  name: string;
  dir: string;
  html_lang: string;
  hreflang: string;
  site_url: string;
  api_url: string;
  feed_url: string;
}

export interface Languages {
  attribution: string;
  default_language: string;
  total_languages: number;
  translated_languages: number;
  languages: LanguageInfo[];
}

export function languages(index: CatalogIndex): Languages {
  const scope = index.catalog;
  return {
    attribution: scope.site.attribution,
    default_language: DEFAULT_LANGUAGE,
    total_languages: LANGUAGES.length,
    translated_languages: index.languagesWithPosts.filter((c) => c !== DEFAULT_LANGUAGE).length,
    languages: LANGUAGES.map((l) => ({
      code: l.code,
      native_name: l.native_name,
      name: l.name,
      dir: l.dir,
      html_lang: l.html_lang,
      hreflang: l.hreflang,
      site_url: absolute(scope, paths.home(scope, l.code)),
      api_url: absolute(scope, paths.api(scope, '/api/posts', { lang: l.code })),
      feed_url: absolute(scope, paths.feed(scope, l.code)),
    })),
  };
}

export interface ProductInfo extends Product {
  attribution: string;
  api_url: string;
}

export const PRODUCT_SLUG = 'the-value-layer';

export function product(index: CatalogIndex): ProductInfo {
  const scope = index.catalog;
  const p = scope.site.product;
  return {
    attribution: scope.site.attribution,
    title: p.title,
    description: p.description,
    format: p.format,
    price_usd: p.price_usd,
    currency: p.currency,
    landing_url: absolute(scope, p.landing_url),
    download_url: absolute(scope, p.download_url),
    api_url: absolute(scope, paths.api(scope, `/api/products/${PRODUCT_SLUG}`)),
  };
}

/**
 * The attribution a language's pages and feed print: its own sentence (site.yaml `attributions:`),
 * else the English one, said to be English so that it is marked as such. The API's stays English.
 */
export function attributionIn(site: SiteSettings, lang: string): { text: string; english: boolean } {
  const own = site.attributions[lang];
  return own === undefined ? { text: site.attribution, english: true } : { text: own, english: false };
}
