import type { QueryShape } from '../core/params.ts';

/**
 * The build manifest: every answer the build published, keyed by path and canonical query. The
 * pipeline, the host targets and the tests read it whole (`Manifest`); it is stored split, a small
 * root and chunks of paths (manifest-chunks.ts), so that a host reads only the chunk a request needs.
 */
export const MANIFEST_VERSION = 4;

export interface ManifestFile {
  /** Site path of the file inside the static artefact (the client folder). */
  file: string;
  type: string;
  /** Strong validator of the identity bytes (the same one the function path computes). */
  etag: string;
  length: number;
  cacheControl: string;
  /** Headers the answer carries besides type and caching. */
  headers?: Record<string, string>;
  /** Byte lengths of the precompressed variants at `file + '.br'` and `file + '.gz'`, when made. */
  br?: number;
  gzip?: number;
  /**
   * Index into `Manifest.holders` when an earlier build's folder holds the bytes (and variants):
   * an incremental build keeps its unchanged files where they are instead of linking them.
   */
  held?: number;
}

/** The representations a negotiated URL offers, first is the default (names of src/core/formats.ts). */
export type Offer = 'html' | 'json' | 'markdown';

export interface ManifestPath {
  /** What the answer depends on in the query string (everything else is ignored). */
  query: QueryShape;
  /** Present when the answer is chosen by `Accept`: the offers in preference order. */
  offers?: Offer[];
  /** Canonical query -> index into `files`, or, when negotiated, offer -> index. */
  answers: Record<string, number | Partial<Record<Offer, number>>>;
}

export interface Manifest {
  version: typeof MANIFEST_VERSION;
  /** The build's id (its folder name under builds/). */
  build: string;
  created: string;
  /** Server limits the published guides state (agents.md); a server with others computes those guides. */
  limits: { rateLimit: number; rateWindowSeconds: number; bodyLimit: number };
  /** Paths whose published answers print `limits`. */
  configDependent: string[];
  files: ManifestFile[];
  /** Earlier builds (ids) whose folders hold files of this one (`ManifestFile.held`); kept while this build is. */
  holders: string[];
  paths: Record<string, ManifestPath>;
  /**
   * The not-found page (answered with 404) by root and language prefix ('', '/fr', '/sandbox/fr'):
   * what an unknown page path gets. Not served at a path of its own.
   */
  notFound: Record<string, number>;
  /** A post's URL in a language it is unavailable in -> its not-found page (404) linking to the original. */
  unavailable: Record<string, number>;
}

/**
 * The stored manifest's root (`manifest.json`): what every request may need, of a size that does
 * not grow with the corpus. The paths are in `chunks` files (`manifest/<k>.json`), a path's chunk
 * given by the hash of the path (chunkOf in manifest-chunks.ts).
 */
export interface ManifestRoot {
  version: typeof MANIFEST_VERSION;
  build: string;
  created: string;
  limits: Manifest['limits'];
  configDependent: string[];
  holders: string[];
  /** How many chunks hold the paths (a power of two). */
  chunks: number;
  /** The not-found pages by root and language prefix, as Manifest.notFound, with their files. */
  notFound: Record<string, ManifestFile>;
}

/**
 * One chunk of the stored manifest, with the files its entries answer with (indexes into its
 * `files`): the paths whose hash lands in it, each with its query shape, offers and answer without
 * a query; the answers to queries (`/api/posts?lang=fr&page=2`), each in the chunk of its path and
 * canonical query, as a list path has one per page and language; the unavailable posts' URLs.
 */
export interface ManifestChunk {
  files: ManifestFile[];
  /** Each path's entry with the answer to no query only (`answers['']`, when there is one). */
  paths: Record<string, ManifestPath>;
  /** `<path>?<canonical query>` -> answer. */
  queries: Record<string, ManifestPath['answers'][string]>;
  unavailable: Record<string, number>;
}

/** Types worth compressing: text and the structured text formats. */
export const isCompressible = (type: string) => /^(text\/|application\/([a-z.+-]*\+)?(json|xml|javascript)|image\/svg\+xml)/.test(type);

/** Smaller bodies go as they are: the coding would save less than its cost. */
export const COMPRESS_MIN_BYTES = 1024;

/** A coded variant is kept only when it saves at least a tenth. */
export const worthCompressing = (coded: number, identity: number) => coded < identity * 0.9;

/** The names a file's bytes and its precompressed variants have beside it: '', '.br', '.gz' as made. */
export const variantSuffixes = (f: { br?: number; gzip?: number }): string[] => ['', ...(f.br !== undefined ? ['.br'] : []), ...(f.gzip !== undefined ? ['.gz'] : [])];

/** The build whose folder holds a file's bytes and variants. */
export const holderOf = (manifest: Pick<Manifest, 'build' | 'holders'>, file: ManifestFile) => (file.held === undefined ? manifest.build : manifest.holders[file.held]!);
