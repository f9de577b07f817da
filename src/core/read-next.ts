import type { CatalogIndex } from './catalog-index.ts';
import type { PostRecord } from './types.ts';

/** What an essay's page offers to read after it, all of it available in the page's language. */
export interface ReadNext {
  /** The essay published just before it, and just after it. */
  previous?: PostRecord;
  next?: PostRecord;
  /** Up to `limit` essays sharing the most categories and tags with it, the newer first among equals; never the previous or next one. */
  related: PostRecord[];
}

/** What to read after the essay `slug` in `lang`. */
export type ReadNextOf = (slug: string, lang: string, limit?: number) => ReadNext;

/** One language's essays, newest first, with each one's place and, per term, the places of the essays that have it. */
interface InLanguage {
  posts: PostRecord[];
  at: Map<string, number>;
  holders: Map<string, number[]>;
}

const termsOf = (post: PostRecord) => new Set([...post.categories.map((t) => `c:${t.slug}`), ...post.tags.map((t) => `t:${t.slug}`)]);

/**
 * `posts` newest first (the catalog's order); `availableIn` the languages a post can be read in.
 * A post not available in `lang` has nothing to read next there. Each language's essays and their
 * terms are gathered once, on its first question: a page then counts the terms it shares with the
 * essays holding one of its own, not with every essay (every post page asked this, over every post).
 */
export function readNextIndex(posts: readonly PostRecord[], availableIn: (post: PostRecord) => readonly string[]): ReadNextOf {
  const terms = new Map(posts.map((p) => [p, [...termsOf(p)]]));
  const languages = new Map<string, InLanguage>();
  const inLanguage = (lang: string): InLanguage => {
    let l = languages.get(lang);
    if (l) return l;
    const list = posts.filter((p) => availableIn(p).includes(lang));
    const holders = new Map<string, number[]>();
    list.forEach((p, i) => {
      for (const t of terms.get(p)!) {
        const places = holders.get(t);
        if (places) places.push(i);
        else holders.set(t, [i]);
      }
    });
    languages.set(lang, (l = { posts: list, at: new Map(list.map((p, i) => [p.slug, i])), holders }));
    return l;
  };
  return (slug, lang, limit = 3) => {
    const l = inLanguage(lang);
    const at = l.at.get(slug);
    if (at === undefined) return { related: [] };
    const next = l.posts[at - 1];
    const previous = l.posts[at + 1];
    // Shared terms by place; the place orders the equals, the newer first.
    const shared = new Map<number, number>();
    for (const t of terms.get(l.posts[at]!)!) {
      for (const i of l.holders.get(t)!) if (i < at - 1 || i > at + 1) shared.set(i, (shared.get(i) ?? 0) + 1);
    }
    const related = [...shared]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([i]) => l.posts[i]!);
    return { ...(previous ? { previous } : {}), ...(next ? { next } : {}), related };
  };
}

/** One question: `readNextIndex`'s answer for `slug` in `lang`. */
export function readNext(posts: readonly PostRecord[], availableIn: (post: PostRecord) => readonly string[], slug: string, lang: string, limit = 3): ReadNext {
  return readNextIndex(posts, availableIn)(slug, lang, limit);
}

const byIndex = new WeakMap<CatalogIndex, ReadNextOf>();

/** What to read next on a post's pages, over a catalog's posts available by its policy: gathered once per catalog. */
export function readNextOf(index: CatalogIndex): ReadNextOf {
  let of = byIndex.get(index);
  if (!of) byIndex.set(index, (of = readNextIndex(index.catalog.posts, (p) => index.available.get(p) ?? [])));
  return of;
}
