// The mixed request load the benches measure the server's memory after: pages, details, lists,
// searches and feeds in every language, over the whole corpus (a bounded server keeps its memory
// whatever part of the corpus the requests reach).
import { LANGUAGE_CODES } from '../src/core/languages.ts';
import { slugOf } from './synthetic-corpus.ts';

/** Words each language's posts hold: from the titles of its first list page. */
export async function titleWords(url: string): Promise<Map<string, string[]>> {
  const words = new Map<string, string[]>();
  for (const lang of LANGUAGE_CODES) {
    const list = (await (await fetch(`${url}/api/posts?lang=${lang}&per_page=50`)).json()) as { data: { title: string }[] };
    words.set(lang, list.data.flatMap((p) => p.title.split(/\s+/)).filter((w) => w.length > 1));
  }
  return words;
}

/** Request `i` of the load on a corpus of `essays` (bench/synthetic-corpus.ts): a post spread over the whole corpus. */
export function mixedRequest(i: number, essays: number, words: Map<string, string[]>): string {
  const lang = LANGUAGE_CODES[i % LANGUAGE_CODES.length]!;
  const prefix = lang === 'en' ? '' : `${lang}/`;
  const slug = slugOf((i * 7919) % essays);
  const pool = words.get(lang)!;
  const pages = Math.max(1, Math.ceil(essays / 10));
  return [`/${prefix}${slug}`, `/api/posts/${slug}?lang=${lang}`, `/api/posts?lang=${lang}&page=${1 + ((i * 31) % pages)}`, `/api/search?lang=${lang}&q=${encodeURIComponent(pool[i % pool.length]!)}`, `/${prefix}feed.xml`][i % 5]!;
}

/** Runs requests `from` to `to` of the load one after another (searches left out when `search` is false); the count of answers by status. */
export async function mixedLoad(url: string, essays: number, words: Map<string, string[]>, from: number, to: number, search = true): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  for (let i = from; i < to; i++) {
    // Without searches, a list of another page stands for each.
    const target = search || i % 5 !== 3 ? mixedRequest(i, essays, words) : mixedRequest(i - 1, essays, words);
    const r = await fetch(url + target).catch(() => undefined);
    await r?.arrayBuffer();
    const s = r?.status ?? 0;
    statuses[s] = (statuses[s] ?? 0) + 1;
  }
  return statuses;
}
