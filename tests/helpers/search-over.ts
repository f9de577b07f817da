import { encodeIndex, openRuns } from '../../src/search/index-codec.ts';
import { postStats, type SearchDoc } from '../../src/search/relevance.ts';
import { createIndex, exportIndex, indexText, languageSearch } from '../../src/search/search-index.ts';

/** A language's search over `docs` (title, then body; id: the position), as the build makes it and the server reads it (the text: title and body). */
export async function searchOver(lang: string, docs: [title: string, body: string][]) {
  const index = createIndex();
  const vocabulary = new Set<string>();
  const indexed: SearchDoc[] = docs.map(([title, body], id) => ({ id, all: indexText(lang, `${title} \n ${body}`), head: indexText(lang, title) }));
  for (const doc of indexed) {
    for (const w of doc.all.split(' ')) vocabulary.add(w);
    index.add(doc);
  }
  const words = [...vocabulary].sort();
  const { header, data } = encodeIndex(await exportIndex(index), words, postStats(indexed, words));
  return languageSearch(lang, openRuns(header, data, words.length), words, docs.length, undefined, (id) => (docs[id] ? `${docs[id][0]} \n ${docs[id][1]}` : undefined));
}
