import { LANGUAGE_CODES } from '../core/languages.ts';
import type { Catalog, EntryMeta, ImageInfo, PostRecord, Term, TranslationState } from '../core/types.ts';
import { catalogPartFile, readCatalogRoot } from './catalog-file.ts';
import { decodeJson, type BundleReader } from './reader.ts';

/**
 * JSON bytes of posts' records whose entries one core holds decoded: 8 MiB, the whole catalog up to
 * about 2,000 essays x 14 (a post's record is some 4 KB).
 */
export const CATALOG_ENTRIES_BYTES = 8 * 1024 * 1024;

type Entries = Record<string, EntryMeta>;

/** One letter a language, in LANGUAGE_CODES' order: what a post's states are held as. */
const STATE_LETTER: Record<Exclude<TranslationState, 'missing'>, string> = { available: 'a', stale: 's' };
const LETTER_STATE: Record<string, TranslationState> = { a: 'available', s: 'stale', '-': 'missing' };
const LANGUAGE_AT = new Map(LANGUAGE_CODES.map((code, i) => [code, i]));

/** Where a post's record is in the catalog's parts (catalogFiles writes `[record,record,...]`). */
interface Place {
  part: number;
  offset: number;
  length: number;
  /** The entries, held for good where the part was not written as catalogFiles writes (its records not where they were computed to be). */
  pinned?: Entries;
}

/**
 * Posts' entries, each read from its record's bytes in its part when asked for (a read of those
 * bytes alone, about 4 KB, and their decoding: tens of microseconds, where a whole part of 256 KiB
 * took milliseconds), held within `bytes` of their JSON, the least recently used let go.
 */
class EntriesCache {
  readonly #held = new Map<Place, Entries>();
  #heldBytes = 0;
  #last: Place | undefined;
  readonly #read: (place: Place) => Uint8Array | undefined;
  readonly #bytes: number;
  constructor(read: (place: Place) => Uint8Array | undefined, bytes: number) {
    this.#read = read;
    this.#bytes = bytes;
  }

  get(place: Place): Entries {
    if (place.pinned) return place.pinned;
    let entries = this.#held.get(place);
    if (entries) {
      // Kept in the order of use (only when another post was used since: an answer reads a post's entries several times in a row).
      if (this.#last !== place) {
        this.#held.delete(place);
        this.#held.set(place, entries);
        this.#last = place;
      }
      return entries;
    }
    const bytes = this.#read(place);
    if (!bytes || bytes.byteLength !== place.length) throw new Error(`${catalogPartFile(place.part)}: a post's record is not where the catalog was (${place.length} bytes at ${place.offset})`);
    entries = decodeJson<PostRecord>(bytes).entries;
    this.hold(place, entries);
    return entries;
  }

  /** Holds a post's entries, letting go of the least recently used beyond the bound (always holding the last). */
  hold(place: Place, entries: Entries): void {
    this.#held.set(place, entries);
    this.#last = place;
    this.#heldBytes += place.length;
    for (const [old] of this.#held) {
      if (this.#heldBytes <= this.#bytes || old === place) break;
      this.#held.delete(old);
      this.#heldBytes -= old.length;
    }
  }
}

/**
 * A post as a core holds it without its entries: the titles, summaries, alt texts and translation
 * fields of every language (4.4 of the 5.3 KB a post took in memory at 300 x 14) are read from its
 * record in its catalog part when an answer asks for them (`entries`), and only their states stay
 * resident, as one letter a language (what lists, availability and search's tables need of every post).
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
  readonly #cache: EntriesCache;
  readonly #place: Place;
  readonly #states: string;

  constructor(post: PostRecord, cache: EntriesCache, place: Place, shared: Shared) {
    this.slug = post.slug;
    this.date = post.date;
    if (post.modified !== undefined) this.modified = post.modified;
    this.author = shared.string(post.author);
    this.featured_image = post.featured_image;
    this.categories = post.categories.map((t) => shared.term('c', t));
    this.tags = post.tags.map((t) => shared.term('t', t));
    this.images = post.images;
    this.#cache = cache;
    this.#place = place;
    this.#states = shared.string(LANGUAGE_CODES.map((code) => (post.entries[code] ? STATE_LETTER[post.entries[code].state] : '-')).join(''));
  }

  get entries(): Entries {
    return this.#cache.get(this.#place);
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
 * (LazyPost), a post's entries read again from its record's bytes when asked for and held decoded
 * within `entriesBytes` of their JSON. Answers are the same as from the whole catalog (readCatalog).
 */
export async function readLazyCatalog(reader: BundleReader & Required<Pick<BundleReader, 'readSync'>>, entriesBytes = CATALOG_ENTRIES_BYTES): Promise<Catalog | undefined> {
  const root = await readCatalogRoot((name) => reader.read(name));
  if (!root) return undefined;
  const range = reader.readRangeSync
    ? (place: Place) => reader.readRangeSync!(catalogPartFile(place.part), place.offset, place.length)
    : (place: Place) => reader.readSync(catalogPartFile(place.part))?.subarray(place.offset, place.offset + place.length);
  const cache = new EntriesCache(range, entriesBytes);
  const shared = new Shared();
  const posts: PostRecord[] = [];
  // One part at a time, so loading holds one part's records beside the posts.
  for (let part = 0; part < root.posts.parts; part++) {
    const bytes = await reader.read(catalogPartFile(part));
    if (!bytes) throw new Error(`the bundle has no ${catalogPartFile(part)}`);
    const records = decodeJson<PostRecord[]>(bytes);
    // Each record's place: its JSON is what catalogFiles wrote (JSON.stringify gives back the same bytes).
    let offset = 1;
    const places = records.map((record): Place => {
      const length = Buffer.byteLength(JSON.stringify(record));
      const place = { part, offset, length };
      offset += length + 1;
      return place;
    });
    // A part written otherwise (its records not where computed) keeps its posts' entries held for good.
    const pinned = records.length > 0 && offset !== bytes.byteLength;
    records.forEach((record, at) => {
      const place = places[at]!;
      if (pinned) place.pinned = record.entries;
      posts.push(new LazyPost(record, cache, place, shared));
      if (!pinned) cache.hold(place, record.entries);
    });
  }
  return { ...root, posts };
}
