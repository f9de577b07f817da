import { createHash } from 'node:crypto';
import { messages } from '../core/messages.ts';
import { listAlternates, listSwitcher } from './alternates.ts';
import { PAGE_SIZE, pageFile, pageSpecs, type PageSpec } from './page-specs.ts';
import type { SiteRoot } from './site-root.ts';
import type { Core } from '../core/index.ts';
import type { Summary } from '../core/shape.ts';
import type { TermCount } from '../core/taxonomies.ts';
import { termName } from '../core/term-names.ts';

export type ListSpec = Extract<PageSpec, { kind: 'home' | 'term' }>;

/** A value per core and key, made once: a core never changes, and it goes with its core. */
function onceFor<T>(store: WeakMap<Core, Map<string, T>>, core: Core, key: string, make: () => T): T {
  let ofCore = store.get(core);
  if (!ofCore) store.set(core, (ofCore = new Map()));
  let hit = ofCore.get(key);
  if (hit === undefined) ofCore.set(key, (hit = make()));
  return hit;
}

/**
 * The categories of a language, as its list pages show them: with their counts on a list's first
 * page, by name on the pages after it. A count changes with every post that comes or goes in the
 * language, so counts on every page would make an edit re-render every list page of the language.
 */
const categoryLists = new WeakMap<Core, Map<string, Category[]>>();
type Category = Pick<TermCount, 'slug' | 'name'> & { count?: number };
const categoriesIn = (core: Core, lang: string, counted: boolean) =>
  onceFor(categoryLists, core, `${lang}${counted ? '#' : ''}`, () =>
    core.terms.list('categories', new URLSearchParams({ lang })).data.map(({ slug, name, count }) => (counted ? { slug, name, count } : { slug, name })),
  );

export type ListPageData = ReturnType<typeof pageData>;
/** Each list page's data by its file: a build digests every list page, then renders the changed ones from the same data. */
const listPages = new WeakMap<Core, Map<string, ListPageData>>();

/** Everything a list page (a home or a term's page) shows besides the root's scope. */
export const listPageData = (root: SiteRoot, spec: ListSpec): ListPageData => onceFor(listPages, root.core, pageFile(root.base, spec), () => pageData(root, spec));

/** A message's `{name}` filled, as the text before it, the name and the text after it. */
function around(template: string, name: string) {
  const [before = '', after = ''] = template.split('{name}');
  return { before, name, after };
}

function pageData(root: SiteRoot, spec: ListSpec) {
  const { core } = root;
  const m = messages(spec.lang);
  const params = new URLSearchParams({ lang: spec.lang, page: String(spec.page), per_page: String(PAGE_SIZE) });
  const list = spec.kind === 'home' ? core.posts.list(params) : core.terms.posts(spec.taxonomy, spec.slug, params);
  const term = spec.kind === 'term' ? core.index.terms[spec.taxonomy].get(spec.slug)!.term : undefined;
  // The term's name is isolated on the page (<bdi>, ListPage.astro), not in the plain heading that
  // <title>, og:title and the description carry (invisible FSI/PDI there reach search results and shares).
  const termHeading = spec.kind === 'term' ? around((spec.taxonomy === 'categories' ? m.inCategory : m.tagged), termName(core.catalog, spec.taxonomy, term!, spec.lang)) : undefined;
  const heading = termHeading ? termHeading.before + termHeading.name + termHeading.after : m.latest;
  const description = spec.kind === 'home' ? (core.catalog.site.descriptions[spec.lang] ?? core.catalog.site.description) : heading;
  const categories = categoriesIn(core, spec.lang, spec.page === 1);
  // What the page shows of its list, no more: the list's total changes with every post that comes or goes.
  return { items: list.data.map((item) => card(core, item)), pages: list.pagination.total_pages, term, heading, termHeading, description, alternates: listAlternates(root, spec), languages: listSwitcher(root, spec), categories };
}

/** A post as its list card shows it: the summary, its reading time in the item's language and its cover. */
function card(core: Core, item: Summary) {
  const post = core.index.bySlug.get(item.slug)!;
  return { ...item, minutes: post.entries[item.language]!.page_reading_time, cover: post.images.find((i) => i.featured) };
}

export type Card = ReturnType<typeof card>;

const isList = (spec: PageSpec): spec is ListSpec => spec.kind === 'home' || spec.kind === 'term';


/**
 * A digest of each list page of a root by its file: what the page shows. Given the same code and
 * the same scope (src/pipeline/reuse/reuse.ts), equal digests mean byte-identical pages.
 */
export function listPageDigests(root: SiteRoot): Record<string, string> {
  return Object.fromEntries(
    pageSpecs(root)
      .filter(isList)
      .map((spec) => [pageFile(root.base, spec), createHash('sha256').update(JSON.stringify({ spec, data: listPageData(root, spec) })).digest('base64url')]),
  );
}
