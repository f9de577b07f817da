import { unified } from 'unified';
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import { visit } from 'unist-util-visit';
import type { Element, Root } from 'hast';
import type { Language } from '../../core/languages.ts';
import { format, messages } from '../../core/messages.ts';
import { absolute, paths } from '../../core/urls.ts';
import { attributionIn } from '../../core/site.ts';
import type { FeedFile } from '../../core/formats.ts';
import type { Core } from '../../core/index.ts';

const FEED_SIZE = 50;

/** One language's feed, whatever its format: what RSS, Atom and JSON Feed each serialise. */
export interface FeedData {
  title: string;
  description: string;
  /** hreflang of the language. */
  language: string;
  /** The site's attribution (SITE_URL's) in the feed's language. */
  rights: string;
  /** The language's home page. */
  home: string;
  /** The feed's own URL, per format. */
  self: (file: FeedFile) => string;
  /** The newest change of an item, else of the site (a feed with no items still has a date). */
  updated: string;
  items: FeedItem[];
}

export interface FeedItem {
  url: string;
  title: string;
  summary: string;
  date: string;
  modified?: string;
  author: string;
  categories: string[];
  image?: string;
  /** The body with every site path made absolute: a reader shows it away from the site. */
  html: string;
}

const fragment = unified().use(rehypeParse, { fragment: true });
const toHtml = unified().use(rehypeStringify);

/** Site paths in `src`, `href`, `poster` and `srcset` become absolute URLs on the origin. */
export function absoluteHtml(html: string, origin: string): string {
  const tree = fragment.parse(html) as Root;
  const abs = (v: string) => (v.startsWith('/') && !v.startsWith('//') ? origin + v : v);
  visit(tree, 'element', (el: Element) => {
    for (const attr of ['src', 'href', 'poster'] as const) if (typeof el.properties[attr] === 'string') el.properties[attr] = abs(el.properties[attr]);
    if (typeof el.properties.srcSet === 'string') el.properties.srcSet = el.properties.srcSet.split(', ').map(abs).join(', ');
  });
  return toHtml.stringify(tree);
}

/** The newest posts available in the language (as its post list says), newest first, with their bodies. */
export async function feedData(core: Core, lang: Language): Promise<FeedData> {
  const scope = core.catalog;
  const page = core.posts.list(new URLSearchParams({ lang: lang.code, per_page: String(FEED_SIZE) }));
  const items = await Promise.all(
    page.data.map(async (item): Promise<FeedItem> => {
      const full = await core.posts.get(item.slug, new URLSearchParams({ lang: lang.code }));
      return {
        url: item.url,
        title: item.title,
        summary: item.summary ?? '',
        date: item.date,
        ...(item.modified ? { modified: item.modified } : {}),
        author: item.author,
        categories: item.categories,
        ...(item.featured_image ? { image: absolute(scope, item.featured_image) } : {}),
        html: absoluteHtml(full.data.content_html, scope.site_url),
      };
    }),
  );
  const changes = (items.length > 0 ? items : scope.posts).map((p) => p.modified ?? p.date);
  return {
    title: format(messages(lang.code).feedTitle, { site: scope.site.name }),
    description: scope.site.descriptions[lang.code] ?? scope.site.description,
    language: lang.hreflang,
    rights: attributionIn(scope.site, lang.code).text,
    home: absolute(scope, paths.home(scope, lang.code)),
    self: (file) => absolute(scope, paths.feed(scope, lang.code, file)),
    updated: changes.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a)),
    items,
  };
}
