/** `id` is the post's position in the catalog: numbers keep the exported index small. */
export type SearchDoc = {
  id: number;
  /** Every word: the head's, then the body's. */
  all: string;
  /** The title's, summary's and terms' words. */
  head: string;
};

/**
 * How well a post answers a query word: BM25F (Robertson and Zaragoza, "The Probabilistic
 * Relevance Framework", 2009) over two fields, the head (title, summary, category and tag names)
 * and the body. A word's counts in each field are divided by that field's length against its
 * average (longer posts say a word more often by chance), the head's weighed HEAD_WEIGHT times the
 * body's, summed, then saturated (a tenth mention adds little) and weighed by the word's rarity
 * (idf). A query's score is the sum over its words. The build stores what the formula needs (each
 * word's counts per post, each post's lengths, the averages); the server computes it per query.
 *
 * The constants are Lucene's and Elasticsearch's defaults (k1 1.2, b 0.75) for the body; the head is
 * short and its length says little (b 0.5). HEAD_WEIGHT 4: a word once in the title outranks the
 * same word a few times in a body of average length; on the relevance set of `npm run bench:search`
 * (MRR, mean of 14 languages) 4 ranked best of 1, 2, 4 and 8 (exact 0.9976, 0.9970, 0.9982, 0.9970).
 */
export const K1 = 1.2;
export const HEAD_WEIGHT = 4;
const HEAD_B = 0.5;
const BODY_B = 0.75;

/** A word's counts in one post, packed in a byte: past these, saturation leaves the score unchanged to 1 %. */
export const HEAD_MOST = 7;
export const BODY_MOST = 31;
export const packCounts = (head: number, body: number) => (Math.min(head, HEAD_MOST) << 5) | Math.min(body, BODY_MOST);
export const headCount = (packed: number) => packed >>> 5;
export const bodyCount = (packed: number) => packed & 31;

/** A post's length in words is kept to 16 bits. */
export const LENGTH_MOST = 0xffff;

/** The figures of a language's posts that every score divides by. */
export interface Collection {
  /** Posts indexed. */
  docs: number;
  avgHead: number;
  avgBody: number;
}

/** Per id, the head's and the body's length norm (`1 - b + b * length / average`), from the lengths (head, body) per id. */
export function lengthNorms(lengths: Uint16Array, { avgHead, avgBody }: Collection): Float64Array {
  const norms = new Float64Array(lengths.length);
  for (let i = 0; i < lengths.length; i += 2) {
    norms[i] = 1 - HEAD_B + (HEAD_B * lengths[i]!) / (avgHead || 1);
    norms[i + 1] = 1 - BODY_B + (BODY_B * lengths[i + 1]!) / (avgBody || 1);
  }
  return norms;
}

/** The collection's averages over the indexed posts' lengths (ids in order, so a clean build and an update agree to the bit). */
export function collectionOf(lengths: Uint16Array, docs: number): Collection {
  let head = 0;
  let body = 0;
  for (let i = 0; i < lengths.length; i += 2) {
    head += lengths[i]!;
    body += lengths[i + 1]!;
  }
  return { docs, avgHead: docs ? head / docs : 0, avgBody: docs ? body / docs : 0 };
}

/** A word's rarity: `df` of the `docs` posts hold it (in the forms the query word matched). */
export const idf = (docs: number, df: number) => Math.log(1 + (docs - df + 0.5) / (df + 0.5));

/** A query word's score in the post `id`: its head and body counts there, `weight` its idf. */
export function wordScore(weight: number, head: number, body: number, norms: Float64Array, id: number): number {
  const tf = (HEAD_WEIGHT * head) / norms[2 * id]! + body / norms[2 * id + 1]!;
  return (weight * tf * (K1 + 1)) / (K1 + tf);
}

/** What ranks the posts of each word's run: per post, its lengths, and the word's counts in it. */
export interface PostStats {
  /** Posts indexed. */
  docs: number;
  /** Per id, at least up to the largest indexed: its head and body length in words (0, 0: not indexed). */
  lengths: Uint16Array;
  /** Sets `into[id]` to the packed counts of the word at vocabulary position `at`, for each post holding it. */
  counts(at: number, into: Uint8Array): void;
}

/** The stats of `docs` (each word counted in `head` and in `all`, which holds the head then the body) over `vocabulary`. */
export function postStats(docs: readonly SearchDoc[], vocabulary: readonly string[]): PostStats {
  const position = new Map(vocabulary.map((word, at) => [word, at]));
  const lengths = new Uint16Array(2 * (docs.reduce((most, d) => Math.max(most, d.id), -1) + 1));
  const ids: number[][] = vocabulary.map(() => []);
  const packed: number[][] = vocabulary.map(() => []);
  const count = (text: string) => {
    const counts = new Map<string, number>();
    let length = 0;
    for (const word of text.split(' ')) {
      if (!word) continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
      length++;
    }
    return { counts, length };
  };
  for (const doc of docs) {
    const head = count(doc.head);
    const all = count(doc.all);
    lengths[2 * doc.id] = Math.min(head.length, LENGTH_MOST);
    lengths[2 * doc.id + 1] = Math.min(Math.max(0, all.length - head.length), LENGTH_MOST);
    for (const [word, n] of all.counts) {
      const at = position.get(word);
      if (at === undefined) continue;
      const inHead = Math.min(head.counts.get(word) ?? 0, n);
      ids[at]!.push(doc.id);
      packed[at]!.push(packCounts(inHead, n - inHead));
    }
  }
  return {
    docs: docs.length,
    lengths,
    counts(at, into) {
      const mine = packed[at]!;
      ids[at]!.forEach((id, k) => (into[id] = mine[k]!));
    },
  };
}
