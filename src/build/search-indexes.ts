import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { placeFile } from './place-file.ts';
import { join } from 'node:path';
import { availableLanguages } from '../core/availability.ts';
import { LANGUAGE_CODES } from '../core/languages.ts';
import type { Catalog } from '../core/types.ts';
import { createIndex, exportIndex, indexText } from '../search/search-index.ts';
import { encodeIndex } from '../search/index-codec.ts';
import { encodeTexts } from '../search/texts-codec.ts';

/** A language's files besides its digest. */
const FILES = ['index.json', 'index.bin', 'texts.bin', 'vocabulary.json'];

/**
 * One exported FlexSearch index per language over the posts available in it (by the site's
 * stale policy) in the compact form of index-codec.ts, its sorted vocabulary, and each entry's plain text for
 * snippets (texts-codec.ts).
 */
/** Returns how many languages' indexes were taken from the live build. */
export async function writeSearchIndexes(catalog: Catalog, text: (slug: string, lang: string) => string | undefined, dir: string, live?: string): Promise<number> {
  let taken = 0;
  await mkdir(dir, { recursive: true });
  const policy = { serveStale: catalog.site.serve_stale };
  for (const lang of LANGUAGE_CODES) {
    const docs: { id: number; head: string; body: string }[] = [];
    const inputs = createHash('sha256').update(`${catalog.posts.length}\0`);
    for (const [id, post] of catalog.posts.entries()) {
      if (!availableLanguages(post, policy).includes(lang)) continue;
      const entry = post.entries[lang]!;
      const body = text(post.slug, lang) ?? '';
      const terms = [...post.categories, ...post.tags].map((t) => t.name).join(' ');
      const head = [entry.title, entry.summary ?? '', terms].join(' \n ');
      inputs.update(`${id}\0${head}\0${body}\0`);
      docs.push({ id, head, body });
    }
    // A language whose posts did not change since the live build (made by the same code) keeps its index.
    const digest = inputs.digest('hex');
    const digestFile = `${lang}.digest`;
    if (live && (await readFile(join(live, digestFile), 'utf8').catch(() => '')) === digest) {
      for (const file of [...FILES.map((f) => `${lang}.${f}`), digestFile]) await placeFile(join(live, file), join(dir, file));
      taken++;
      continue;
    }
    const index = createIndex();
    const bodies: (string | undefined)[] = [];
    const vocabulary = new Set<string>();
    for (const { id, head, body } of docs) {
      const all = indexText(lang, `${head} \n ${body}`);
      for (const word of all.split(' ')) if (word) vocabulary.add(word);
      index.add({ id, head: indexText(lang, head), all });
      bodies[id] = body;
    }
    const words = [...vocabulary].sort();
    const { header, data } = encodeIndex(await exportIndex(index), words);
    await writeFile(join(dir, `${lang}.index.json`), JSON.stringify(header));
    await writeFile(join(dir, `${lang}.index.bin`), data);
    await writeFile(join(dir, `${lang}.texts.bin`), encodeTexts(Array.from({ length: catalog.posts.length }, (_, id) => bodies[id])));
    await writeFile(join(dir, `${lang}.vocabulary.json`), JSON.stringify(words));
    await writeFile(join(dir, digestFile), digest);
  }
  return taken;
}
