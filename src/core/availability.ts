import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from './languages.ts';
import type { EntryMeta, PostRecord, TranslationState } from './types.ts';

/** The translation-state rule, in one place. */
export interface Policy {
  serveStale: boolean;
}

/** What has entries by language: a post or a standalone page. */
export interface Translated {
  entries: Record<string, EntryMeta>;
  /** Its state in a language, where it holds its states apart from its entries (a post a host reads lazily: src/bundle/lazy-catalog.ts). */
  stateIn?(lang: string): TranslationState;
}

export function stateIn(post: Translated, lang: string): TranslationState {
  return post.stateIn ? post.stateIn(lang) : (post.entries[lang]?.state ?? 'missing');
}

export function isAvailable(post: Translated, lang: string, policy: Policy): boolean {
  const state = stateIn(post, lang);
  return state === 'available' || (state === 'stale' && policy.serveStale);
}

/** Languages this post can be read in, in table order (English first). */
export function availableLanguages(post: Translated, policy: Policy): string[] {
  return LANGUAGE_CODES.filter((code) => isAvailable(post, code, policy));
}

/** What a request for `post` in `requested` returns. */
export interface Resolved<T extends Translated = PostRecord> {
  post: T;
  entry: EntryMeta;
  /** Language of the returned content. */
  lang: string;
  requested: string;
  fallbackUsed: boolean;
}

export type Resolution<T extends Translated = PostRecord> = Resolved<T> | { unavailable: 'missing' | 'stale' };

export function resolve<T extends Translated>(post: T, requested: string, fallback: boolean, policy: Policy): Resolution<T> {
  if (isAvailable(post, requested, policy)) {
    return { post, entry: post.entries[requested]!, lang: requested, requested, fallbackUsed: false };
  }
  if (fallback) {
    return { post, entry: post.entries[DEFAULT_LANGUAGE]!, lang: DEFAULT_LANGUAGE, requested, fallbackUsed: true };
  }
  return { unavailable: stateIn(post, requested) === 'stale' ? 'stale' : 'missing' };
}

/**
 * Hugo's MergeByLanguage: the posts of a list in `requested`, each in that language
 * when available, else (with fallback) in English; without fallback, unavailable posts drop out.
 */
export function mergeByLanguage(posts: readonly PostRecord[], requested: string, fallback: boolean, policy: Policy): Resolved[] {
  const out: Resolved[] = [];
  for (const post of posts) {
    const r = resolve(post, requested, fallback, policy);
    if (!('unavailable' in r)) out.push(r);
  }
  return out;
}
