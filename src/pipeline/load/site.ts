import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { FileError, lineOf } from './file-error.ts';
import { SLUG_PATTERN } from '../../core/params.ts';
import { LANGUAGE_CODES } from '../../core/languages.ts';
import type { SiteSettings } from '../../core/types.ts';
import { Fields } from './front-matter.ts';

/**
 * The attribution every surface prints. `{name}` and `{url}` are filled at build time with the
 * site's name and the root's address on SITE_URL (src/pipeline/bundle.ts), so no address is written here.
 */
export const DEFAULT_ATTRIBUTION = 'Source: {name} ({url}). Please cite and link the original essay when you quote or summarise it.';

export interface LoadedSite {
  settings: SiteSettings;
  url?: string;
  /** `menu:` as written: page and category slugs, in order (checked against the content by menuOf). */
  menu: string[];
  /** Where `menu:` is written, for its errors. */
  menuAt: { file: string; line: number };
  /** `menu_names:`: a page's menu label per language, for the languages the page is not translated into. */
  menuNames: Record<string, Record<string, string>>;
}

/** `site.yaml` of a content root: the site settings (secrets never live here). */
export async function loadSite(root: string): Promise<LoadedSite> {
  const file = join(root, 'site.yaml');
  let data: unknown;
  let raw = '';
  try {
    raw = await readFile(file, 'utf8');
    data = yaml.load(raw);
  } catch (e) {
    throw new FileError(file, '', `could not be read as YAML: ${(e as Error).message}`);
  }
  if (!data || typeof data !== 'object') throw new FileError(file, '', 'must be a YAML mapping');
  const f = new Fields(file, data as Record<string, unknown>, ['name', 'description', 'descriptions', 'author', 'url', 'attribution', 'attributions', 'serve_stale', 'product', 'robots_disallow', 'menu', 'menu_names'], raw);
  f.check();
  /** A text's translations (`descriptions:`, `attributions:`, each of `menu_names:`): a string per language code. */
  const byLanguage = (field: string, value: unknown = f.data[field]) => {
    const texts = (value ?? {}) as Record<string, unknown>;
    if (typeof texts !== 'object' || Array.isArray(texts)) f.fail(field, 'must map language codes to strings');
    for (const [code, text] of Object.entries(texts)) {
      if (!LANGUAGE_CODES.includes(code) || typeof text !== 'string') f.fail(`${field}.${code}`, 'must map a language code to a string');
    }
    return texts as Record<string, string>;
  };
  const descriptions = byLanguage('descriptions');
  const attributions = byLanguage('attributions');
  const p = f.data.product;
  if (!p || typeof p !== 'object') f.fail('product', 'is required (the offer GET /api/products/the-value-layer answers with): a mapping with title, description, format, price_usd, currency, landing_url, download_url, as in the demo\'s content/site.yaml');
  const pf = new Fields(file, p as Record<string, unknown>, ['title', 'description', 'format', 'price_usd', 'currency', 'landing_url', 'download_url']);
  pf.check();
  const price = pf.data.price_usd;
  if (typeof price !== 'number' || !(price >= 0)) pf.fail('product.price_usd', 'must be a number >= 0');
  const url = f.optionalString('url');
  if (url !== undefined && !/^https?:\/\/[^/]+$/.test(url)) f.fail('url', 'must be an origin like https://example.com (no path, no trailing slash)');
  const menu = f.stringList('menu');
  if (menu.some((slug) => !SLUG_PATTERN.test(slug))) f.fail('menu', 'must be a list of page and category slugs, e.g. menu: [about, colophon, technology]');
  const names = f.data.menu_names ?? {};
  if (typeof names !== 'object' || Array.isArray(names)) f.fail('menu_names', 'must map page slugs of menu: to their names by language, e.g. menu_names: {about: {de: "Über uns"}}');
  const menuNames = Object.fromEntries(Object.entries(names as Record<string, unknown>).map(([slug, byLang]) => {
    if (!menu.includes(slug)) f.fail(`menu_names.${slug}`, `names no entry of menu: (${menu.join(', ') || 'empty'})`);
    return [slug, byLanguage(`menu_names.${slug}`, byLang)];
  }));
  return {
    url,
    menu,
    menuNames,
    menuAt: { file, line: lineOf(raw, 'menu') },
    settings: {
      name: f.string('name'),
      description: f.string('description'),
      descriptions,
      author: f.string('author'),
      attribution: f.optionalString('attribution') ?? DEFAULT_ATTRIBUTION,
      attributions,
      serve_stale: f.boolean('serve_stale', false),
      robots_disallow: robotsDisallow(f),
      product: {
        title: pf.string('title'),
        description: pf.string('description'),
        format: pf.string('format'),
        price_usd: price as number,
        currency: pf.string('currency'),
        landing_url: pf.string('landing_url'),
        download_url: pf.string('download_url'),
      },
    },
  };
}

/** `robots_disallow`: paths on the site (each starting with /) that /robots.txt asks crawlers to skip. */
function robotsDisallow(f: Fields): string[] {
  const value = f.data.robots_disallow ?? [];
  if (!Array.isArray(value) || value.some((p) => typeof p !== 'string' || !p.startsWith('/'))) f.fail('robots_disallow', 'must be a list of paths, each starting with /, e.g. robots_disallow: [/sandbox/]');
  return value as string[];
}
