import type { Manifest, ManifestChunk, ManifestFile, ManifestPath, ManifestRoot } from './manifest.ts';

/**
 * How the manifest is stored: a root (`manifest.json`) and chunks (`manifest/<k>.json`), each entry
 * in the chunk its key's hash names (a path; a path and canonical query). A host reads the root once
 * and then, per request, the chunk of its path (and of its query), tens of KB, never the whole
 * manifest (10.9 MB at 500 x 14, some 2 GB at 100,000 x 14). No chunk grows with the corpus: a list's
 * pages, which do, are keyed by query. The pipeline, which needs it whole, joins it back
 * (client-files.ts readManifest).
 */

/** About this many entries a chunk (an entry and its file, some 300 bytes of JSON): the chunk count grows with the corpus, a chunk's size does not. */
export const ENTRIES_PER_CHUNK = 128;

/** The artefact path of chunk `k`. */
export const chunkFile = (k: number) => `manifest/${k}.json`;

/** The key of a query's answer (the query canonical, as ManifestPath.answers keys it). */
export const queryKey = (path: string, query: string) => `${path}?${query}`;

/** The chunk count for this many entries: a power of two, so that the count and each key's chunk follow from the entries alone. */
export function chunkCount(entries: number): number {
  let n = 1;
  while (n * ENTRIES_PER_CHUNK < entries) n *= 2;
  return n;
}

/** FNV-1a over the key's UTF-16 units: the same number on every host (no crypto, no encoding step). */
export function chunkOf(key: string, chunks: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) & (chunks - 1);
}

type Answer = ManifestPath['answers'][string];
const mapAnswer = (a: Answer, f: (i: number) => number): Answer => (typeof a === 'number' ? f(a) : Object.fromEntries(Object.entries(a).map(([o, i]) => [o, f(i!)])));
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The manifest as it is stored: its root and chunks, each chunk with only the files its entries answer with. */
/** The entries a manifest is stored as (a path without answers is one; each answer of a path one). */
const entriesOf = (m: Manifest) => Object.values(m.paths).reduce((n, e) => n + Math.max(1, Object.keys(e.answers).length), 0) + Object.keys(m.unavailable).length;

/** How many files a manifest is stored as: its chunks and its root (at most, for a manifest made from it with fewer answers). */
export const storedManifestFiles = (m: Manifest) => chunkCount(entriesOf(m)) + 1;

export function splitManifest(m: Manifest): { root: ManifestRoot; chunks: ManifestChunk[] } {
  const count = chunkCount(entriesOf(m));
  const chunks = Array.from({ length: count }, () => ({ files: [] as ManifestFile[], paths: {} as ManifestChunk['paths'], queries: {} as ManifestChunk['queries'], unavailable: {} as ManifestChunk['unavailable'], index: new Map<number, number>() }));
  const into = (key: string) => {
    const chunk = chunks[chunkOf(key, count)]!;
    const local = (i: number) => {
      let j = chunk.index.get(i);
      if (j === undefined) chunk.index.set(i, (j = chunk.files.push(m.files[i]!) - 1));
      return j;
    };
    return { chunk, local };
  };
  for (const [path, entry] of Object.entries(m.paths)) {
    const { chunk, local } = into(path);
    const none = entry.answers[''];
    chunk.paths[path] = { ...entry, answers: none === undefined ? {} : { '': mapAnswer(none, local) } };
    for (const [query, answer] of Object.entries(entry.answers)) {
      if (query === '') continue;
      const key = queryKey(path, query);
      const at = into(key);
      at.chunk.queries[key] = mapAnswer(answer, at.local);
    }
  }
  for (const [path, i] of Object.entries(m.unavailable)) {
    const { chunk, local } = into(path);
    chunk.unavailable[path] = local(i);
  }
  const root: ManifestRoot = {
    version: m.version,
    build: m.build,
    created: m.created,
    limits: m.limits,
    configDependent: m.configDependent,
    holders: m.holders,
    chunks: count,
    notFound: Object.fromEntries(Object.entries(m.notFound).map(([prefix, i]) => [prefix, m.files[i]!])),
  };
  return { root, chunks: chunks.map(({ files, paths, queries, unavailable }) => ({ files, paths, queries, unavailable })) };
}

/** The whole manifest from its root and chunks (files shared by chunks once, in name order; keys in order). */
export function joinManifest(root: ManifestRoot, chunks: readonly ManifestChunk[]): Manifest {
  const byName = new Map<string, ManifestFile>();
  for (const f of [...Object.values(root.notFound), ...chunks.flatMap((c) => c.files)]) byName.set(f.file, f);
  const files = [...byName.values()].sort((a, b) => compare(a.file, b.file));
  const at = new Map(files.map((f, i) => [f.file, i]));
  const paths: Record<string, ManifestPath> = {};
  const unavailable: Record<string, number> = {};
  const queries: [string, string, Answer][] = [];
  for (const chunk of chunks) {
    const global = (i: number) => at.get(chunk.files[i]!.file)!;
    for (const [path, entry] of Object.entries(chunk.paths)) paths[path] = { ...entry, answers: Object.fromEntries(Object.entries(entry.answers).map(([q, a]) => [q, mapAnswer(a, global)])) };
    for (const [key, answer] of Object.entries(chunk.queries)) {
      const cut = key.lastIndexOf('?');
      queries.push([key.slice(0, cut), key.slice(cut + 1), mapAnswer(answer, global)]);
    }
    for (const [path, i] of Object.entries(chunk.unavailable)) unavailable[path] = global(i);
  }
  for (const [path, query, answer] of queries.sort(([p, q], [r, s]) => compare(p, r) || compare(q, s))) paths[path]!.answers[query] = answer;
  const sorted = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => compare(a, b)));
  return {
    version: root.version,
    build: root.build,
    created: root.created,
    limits: root.limits,
    configDependent: root.configDependent,
    files,
    holders: root.holders,
    paths: sorted(paths),
    notFound: sorted(Object.fromEntries(Object.entries(root.notFound).map(([prefix, f]) => [prefix, at.get(f.file)!]))),
    unavailable: sorted(unavailable),
  };
}
