import { loadAll, status } from '../../src/translate/translation-status.ts';
import { LANGUAGE_CODES } from '../../src/core/languages.ts';

/**
 * Expectations read from the content files themselves (not from the bundle), so tests check
 * the build and the API against an independent reading of the source.
 */
export async function corpus(root: 'content' | 'sandbox') {
  const posts = await loadAll(root);
  const states = new Map(posts.map((p) => [p.slug, status(p).states]));
  const stateOf = (slug: string, lang: string) => (lang === 'en' ? 'available' : states.get(slug)![lang]);
  const availableIn = (lang: string) => posts.filter((p) => stateOf(p.slug, lang) === 'available');
  const find = (state: string) => {
    for (const p of posts) for (const lang of LANGUAGE_CODES) if (stateOf(p.slug, lang) === state) return { slug: p.slug, lang };
    throw new Error(`no ${state} translation in ${root}`);
  };
  const byDate = [...posts].sort((a, b) => (a.english.date === b.english.date ? a.slug.localeCompare(b.slug) : b.english.date.localeCompare(a.english.date)));
  return { posts, byDate, stateOf, availableIn, find };
}

/** A site.yaml without its menu (and the menu's names), for a copy holding only some of the demo's posts and pages. */
export const withoutMenu = (siteYaml: string) => siteYaml.replace(/^menu:.*\n/m, '').replace(/^menu_names:\n(?: .*\n)*/m, '');
