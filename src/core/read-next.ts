import type { PostRecord } from './types.ts';

/** What an essay's page offers to read after it, all of it available in the page's language. */
export interface ReadNext {
  /** The essay published just before it, and just after it. */
  previous?: PostRecord;
  next?: PostRecord;
  /** Up to `limit` essays sharing the most categories and tags with it, the newer first among equals; never the previous or next one. */
  related: PostRecord[];
}

const termsOf = (post: PostRecord) => new Set([...post.categories.map((t) => `c:${t.slug}`), ...post.tags.map((t) => `t:${t.slug}`)]);

/**
 * `posts` newest first (the catalog's order); `availableIn` the languages a post can be read in.
 * A post not available in `lang` has nothing to read next there.
 */
export function readNext(posts: readonly PostRecord[], availableIn: (post: PostRecord) => readonly string[], slug: string, lang: string, limit = 3): ReadNext {
  const inLanguage = posts.filter((p) => availableIn(p).includes(lang));
  const at = inLanguage.findIndex((p) => p.slug === slug);
  if (at < 0) return { related: [] };
  const post = inLanguage[at]!;
  const next = inLanguage[at - 1];
  const previous = inLanguage[at + 1];
  const terms = termsOf(post);
  const related = inLanguage
    .filter((p) => p !== post && p !== next && p !== previous)
    .map((p, order) => ({ p, order, shared: [...termsOf(p)].filter((t) => terms.has(t)).length }))
    .filter((c) => c.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.order - b.order)
    .slice(0, limit)
    .map((c) => c.p);
  return { ...(previous ? { previous } : {}), ...(next ? { next } : {}), related };
}
