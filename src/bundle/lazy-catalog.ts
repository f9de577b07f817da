import { LANGUAGE_CODES } from '../core/languages.ts';
import type { Catalog, EntryMeta, ImageInfo, PostRecord, Term, TranslationState } from '../core/types.ts';
import { catalogPartFile, readCatalogRoot } from './catalog-file.ts';
import { decodeJson, type BundleReader } from './reader.ts';

/**
 * JSON bytes of catalog parts held decoded (their posts' entries) by one core: 8 MiB, 32 parts of
 * CATALOG_PART_BYTES, the whole catalog up to about 2,000 essays x 14.
 */
export const CATALOG_ENTRIES_BYTES = 8 * 1024 * 1024;

type Entries = Record<string, EntryMeta>;

/** One letter a language, in LANGUAGE_CODES' order: what a post's states are held as. */
const STATE_LETTER: Record<Exclude<TranslationState, 'missing'>, string> = { available: 'a', stale: 's' };
const LETTER_STATE: Record<string, TranslationState> = { a: 'available', s: 'stale', '-': 'missing' };
const LANGUAGE_AT = new Map(LANGUAGE_CODES.map((code, i) => [code, i]));

/** The parts' posts' entries, decoded when asked for and held within `bytes` of their JSON (the part read last held the longest). */
class PartEntries {
  readonly #held = new Map<number, Entries[]>();
  #heldBytes = 0;
  readonly #sizes: number[];
  readonly #readSync: (name: string) => Uint8Array | undefined;
  readonly #bytes: number;
  constructor(sizes: number[], readSync: (name: string) => Uint8Array | undefined, bytes: number) {
    this.#sizes = sizes;
    this.#readSync = readSync;
    this.#bytes = bytes;
  }

  /** The entries of post `at` of part `k`. */
  get(k: number, at: number): Entries {
    let part = this.#held.get(k);
    if (part) {
      // Kept in the order of use (only when another part was used since: the common case is a run of one part's posts).
      if (this.#last !== k) {
        this.#held.delete(k);
        this.#held.set(k, part);
        this.#last = k;
      }
      return part[at]!;
    }
    const bytes = this.#readSync(catalogPartFile(k));
    if (!bytes) throw new Error(`the bundle has no ${catalogPartFile(k)}`);
    part = decodeJson<PostRecord[]>(bytes).map((post) => post.entries);
    this.hold(k, part);
    return part[at]!;
  }

  #last = -1;

  /** Holds part `k`'s entries, letting go of the least recently used parts beyond the bound (always holding the last). */
  hold(k: number, part: Entries[]): void {
    this.#held.set(k, part);
    this.#last = k;
    this.#heldBytes += this.#sizes[k]!;
    for (const [old] of this.#held) {
      if (this.#heldBytes <= this.#bytes || old === k) break;
      this.#held.delete(old);
      this.#heldBytes -= this.#sizes[old]!;
    }
  }
}

/**
 * A post as a core holds it without its entries: the titles, summaries, alt texts and translation
 * fields of every language (4.4 of the 5.3 KB a post took in memory at 300 x 14) are read from its
 * catalog part when an answer asks for them (`entries`), and only their states stay resident, as
 * one letter a language (what lists, availability and search's tables need of every post).
 */
class LazyPost implements PostRecord {
  slug: string;
  date: string;
  modified?: string;
  author: string;
  featured_image: string | null;
  categories: Term[];
  tags: Term[];
  images: ImageInfo[];
  readonly #parts: PartEntries;
  readonly #part: number;
  readonly #at: number;
  readonly #states: string;

  constructor(post: PostRecord, parts: PartEntries, part: number, at: number, shared: Shared) {
    this.slug = post.slug;
    this.date = post.date;
    if (post.modified !== undefined) this.modified = post.modified;
    this.author = shared.string(post.author);
    this.featured_image = post.featured_image;
    this.categories = post.categories.map((t) => shared.term('c', t));
    this.tags = post.tags.map((t) => shared.term('t', t));
    this.images = post.images;
    this.#parts = parts;
    this.#part = part;
    this.#at = at;
    this.#states = shared.string(LANGUAGE_CODES.map((code) => (post.entries[code] ? STATE_LETTER[post.entries[code].state] : '-')).join(''));
  }

  get entries(): Entries {
    return this.#parts.get(this.#part, this.#at);
  }

  /** The post's state in `lang` without reading its entries (availability.ts). */
  stateIn(lang: string): TranslationState {
    const i = LANGUAGE_AT.get(lang);
    return i === undefined ? 'missing' : LETTER_STATE[this.#states[i]!]!;
  }

  /** The record as the bundle stores it. */
  toJSON(): PostRecord {
    const { slug, date, modified, author, featured_image, categories, tags, images, entries } = this;
    return { slug, date, ...(modified === undefined ? {} : { modified }), author, featured_image, categories, tags, images, entries };
  }
}

/** Values many posts share, held once: their author, their terms (one object a term), their states. */
class Shared {
  readonly #strings = new Map<string, string>();
  readonly #terms = new Map<string, Term>();
  string(s: string): string {
    const hit = this.#strings.get(s);
    if (hit !== undefined) return hit;
    this.#strings.set(s, s);
    return s;
  }
  term(kind: string, t: Term): Term {
    const key = `${kind}\0${t.slug}\0${t.name}`;
    const hit = this.#terms.get(key);
    if (hit) return hit;
    this.#terms.set(key, t);
    return t;
  }
}

/**
 * The catalog of a bundle the host reads synchronously (a disk), its posts without their entries
 * (LazyPost), each part's entries read again when asked for and held decoded within `entriesBytes`
 * of their JSON. Answers are the same as from the whole catalog (readCatalog).
 */
export async function readLazyCatalog(reader: BundleReader & Required<Pick<BundleReader, 'readSync'>>, entriesBytes = CATALOG_ENTRIES_BYTES): Promise<Catalog | undefined> {
  const root = await readCatalogRoot((name) => reader.read(name));
  if (!root) return undefined;
  const sizes: number[] = [];
  const parts = new PartEntries(sizes, (name) => reader.readSync(name), entriesBytes);
  const shared = new Shared();
  const posts: PostRecord[] = [];
  // One part at a time, so loading holds one part's records beside the skeletons.
  for (let k = 0; k < root.posts.parts; k++) {
    const bytes = await reader.read(catalogPartFile(k));
    if (!bytes) throw new Error(`the bundle has no ${catalogPartFile(k)}`);
    sizes[k] = bytes.byteLength;
    const records = decodeJson<PostRecord[]>(bytes);
    records.forEach((post, at) => posts.push(new LazyPost(post, parts, k, at, shared)));
    parts.hold(
      k,
      records.map((post) => post.entries),
    );
  }
  return { ...root, posts };
}
