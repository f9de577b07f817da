import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Root } from '../../../functions/context.ts';
import type { Route } from '../../../functions/route.ts';
import { routeIndex } from '../../../functions/route-index.ts';
import type { CatalogIndex } from '../../core/catalog-index.ts';
import { FEEDS } from '../../core/formats.ts';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../../core/languages.ts';
import { paths, type UrlScope } from '../../core/urls.ts';
import { pageSpecs, pathOf } from '../../site/page-specs.ts';

/** What a site path of a root is, as far as a link to it goes. */
export type SiteTarget =
  /** A post's page in a language it is available in (its body's ids are the fragments it has). */
  | { kind: 'post'; slug: string; lang: string }
  | { kind: 'media'; slug: string; file: string }
  | { kind: 'other' };

/** Without its trailing slash (the root's home is '/'). */
export const trimmed = (path: string) => path.replace(/(.)\/+$/, '$1');

/** Every file of `dir`, as site paths (`/favicon.ico`); none when it is not there. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => `/${relative(dir, join(d.parentPath, d.name)).split(sep).join('/')}`);
  } catch {
    return [];
  }
}

/**
 * The paths a root answers, derived from what makes them rather than listed: the pages the build
 * writes (src/site/page-specs.ts), the files it publishes beside them (feeds, the sitemap, Markdown
 * twins, media, the public folder), and the function routes that answer GET (functions/routes.ts),
 * whose patterns claim their paths as they do for a request (`/{lang}/{slug}` of any known post,
 * whatever its translation's state: the site answers it with the page that leads to the original).
 * A term page is only where the build writes one: in a language with a post of the term.
 */
export interface SiteSources {
  index: CatalogIndex;
  scope: UrlScope;
  /** Each post's own files, by slug. */
  assets: ReadonlyMap<string, readonly string[]>;
  /** The function routes, loaded only when a path is none of the build's files (they take a second to load). */
  routes: () => Promise<readonly Route[]>;
  /** The folder published at the root as it is (`public/`), for the site's root. */
  publicDir?: string;
  /** The bases of the other roots of the build: their paths are theirs to check. */
  otherBases: readonly string[];
}

export function sitePaths({ index, scope, assets, routes, publicDir, otherBases }: SiteSources) {
  const targets = new Map<string, SiteTarget>();
  const other: SiteTarget = { kind: 'other' };
  for (const spec of pageSpecs({ core: { index } })) {
    if (spec.kind === 'not-found' || spec.kind === 'unavailable') continue;
    const path = trimmed(`${scope.base}/${pathOf(spec)}`);
    targets.set(path, spec.kind === 'post' ? { kind: 'post', slug: spec.slug, lang: spec.lang } : other);
  }
  for (const lang of LANGUAGE_CODES) for (const feed of FEEDS) targets.set(paths.feed(scope, lang, feed.file), other);
  targets.set(paths.sitemap(scope), other);
  // A post's Markdown in any language, as its page: where the translation is unavailable the site
  // answers with the way to the original (negotiated, a 404 naming it), and a link to it must not
  // break the build whenever an edit of the English makes the translation stale.
  for (const post of index.catalog.posts) for (const lang of LANGUAGE_CODES) targets.set(paths.markdown(scope, post.slug, lang), other);
  for (const [slug, files] of assets) for (const file of files) targets.set(paths.media(scope, slug, file), { kind: 'media', slug, file });
  for (const file of publicDir ? filesUnder(publicDir) : []) targets.set(`${scope.base}${file}`, other);

  const within = (path: string, base: string) => path === base || path.startsWith(`${base}/`);
  let gets: Promise<ReturnType<typeof routeIndex<Route>>> | undefined;
  // What the route claims read of a root: its catalog's index.
  const root = { base: scope.base, core: { index } } as unknown as Root;
  return {
    /** What is at `path` (decoded, without query or fragment), or undefined when the root has nothing there. */
    async at(path: string): Promise<SiteTarget | undefined> {
      if (!within(path, scope.base)) return undefined;
      let inRoot = path.slice(scope.base.length) || '/';
      // English lives at the root: its prefix redirects there (functions/routes.ts).
      if (inRoot === `/${DEFAULT_LANGUAGE}` || inRoot.startsWith(`/${DEFAULT_LANGUAGE}/`)) inRoot = inRoot.slice(DEFAULT_LANGUAGE.length + 1) || '/';
      const known = targets.get(trimmed(`${scope.base}${inRoot}`));
      if (known) return known;
      gets ??= routes().then((all) => routeIndex(all.filter((r) => (r.method ?? 'GET') === 'GET')));
      return (await gets).match(trimmed(inRoot), (route, params) => !route.claims || route.claims(params, root)).length > 0 ? other : undefined;
    },
    /** Is `path` this root's (not outside its base, not under another root's)? */
    owns: (path: string) => within(path, scope.base) && !otherBases.some((base) => base.length > scope.base.length && within(path, base)),
    /** Post slugs, for suggestions. */
    slugs: index.catalog.posts.map((p) => p.slug),
    /** A taxonomy's term slugs (`category`, `tag` as in their paths), for suggestions. */
    terms: (segment: string) => [...index.terms[segment === 'tag' ? 'tags' : 'categories'].keys()],
  };
}

export type SitePaths = ReturnType<typeof sitePaths>;
