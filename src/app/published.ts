import { FORMATS } from '../core/formats.ts';
import { negotiate } from '../core/negotiate.ts';
import { canonicalQuery } from '../core/params.ts';
import type { ManifestChunk, ManifestFile, ManifestPath, Offer } from '../artefact/manifest.ts';
import type { ManifestView } from '../artefact/manifest-view.ts';
import { queryKey } from '../artefact/manifest-chunks.ts';
import { boundedCache } from '../../functions/bounded-cache.ts';
import { chooseEncoding, type Encoding } from './encoding.ts';
import { gzipCoding, gzipOnDemand } from '../artefact/gzip-coding.ts';

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz', identity: '' };

export interface Found {
  file: ManifestFile;
  /** 200 unless it is the not-found page. */
  status?: 404;
  /** The URL negotiates by Accept (its answers vary with it). */
  negotiated: boolean;
}

/** How a host reads a file of the static artefact by its name there (disk, an assets binding...), `file` the manifest's entry it belongs to. */
export type ReadFile = (name: string, file: ManifestFile) => Promise<Uint8Array>;

/** A value now, or later when it must be read first (a manifest chunk not kept yet). */
export type Soon<T> = T | Promise<T>;
function then<T, U>(value: Soon<T>, f: (v: T) => Soon<U>): Soon<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}
type Answer = ManifestPath['answers'][string];

/**
 * A build's published answers, as the app sees them: one lookup from path, query and Accept to
 * a file (in the manifest chunk of the path, read when first needed), and the file's bytes from a
 * bounded memory cache (the build never changes once live).
 */
export function publishedFiles(manifest: ManifestView, read: ReadFile, cacheBytes: number, skip: ReadonlySet<string> = new Set()) {
  const bodies = boundedCache<Uint8Array>(cacheBytes, (b) => b.byteLength);
  // A file with its gzip length (coded) by the manifest's entry, and back: weak, as entries come and go with their chunks.
  const withGzip = new WeakMap<ManifestFile, ManifestFile>();
  const onDemand = new WeakMap<ManifestFile, ManifestFile>();
  const { root } = manifest;

  /** The canonical query a request's answer is keyed by ('' for none); undefined when it is invalid (the function layer answers its 400). */
  function queryOf(entry: ManifestPath, search: string): string | undefined {
    if (search === '' || (entry.query === 'none' && !entry.offers)) return '';
    try {
      return canonicalQuery(entry.query, new URLSearchParams(search));
    } catch {
      return undefined;
    }
  }

  /** The answer to a path's query: the entry's own without one, else in the chunk of the path and query. */
  function answerOf(chunk: ManifestChunk, path: string, query: string): Soon<{ chunk: ManifestChunk; answer: Answer | undefined }> {
    if (query === '') return { chunk, answer: chunk.paths[path]!.answers[''] };
    const key = queryKey(path, query);
    return then(manifest.chunk(key), (at) => ({ chunk: at, answer: at.queries[key] }));
  }

  function pageIn(chunk: ManifestChunk, path: string): ManifestFile | undefined {
    const answer = chunk.paths[path]?.answers[''];
    if (answer === undefined) return undefined;
    const i = typeof answer === 'number' ? answer : answer.html;
    const file = i === undefined ? undefined : chunk.files[i];
    return file?.type.startsWith('text/html') ? file : undefined;
  }

  return {
    /** The published answer for a request, if there is one. `search` is without '?'. */
    find(path: string, search: string, accept: string | undefined): Soon<Found | undefined> {
      if (skip.has(path)) return undefined;
      return then(manifest.chunk(path), (chunk) => {
        const entry = chunk.paths[path];
        if (!entry) return undefined;
        const query = queryOf(entry, search);
        if (query === undefined) return undefined;
        return then(answerOf(chunk, path, query), ({ chunk: at, answer }): Found | undefined => {
          if (answer === undefined) return undefined;
          if (typeof answer === 'number') return { file: at.files[answer]!, negotiated: false };
          // A negotiated URL with a query (/fr/post?fallback=en) is the function layer's to answer.
          if (search !== '') return undefined;
          const offers = entry.offers!.map((o) => FORMATS[o]);
          const chosen = negotiate(accept ?? null, offers).name as Offer;
          const i = answer[chosen];
          return i === undefined ? undefined : { file: at.files[i]!, negotiated: true };
        });
      });
    },
    /** The page published at a path (for negotiating functions and canonical redirects). */
    page(path: string): Soon<ManifestFile | undefined> {
      if (skip.has(path)) return undefined;
      return then(manifest.chunk(path), (chunk) => pageIn(chunk, path));
    },
    /**
     * The published not-found page for a page path: the post's own when its translation is
     * unavailable, else its root's, in its language.
     */
    notFound(path: string): Soon<Found | undefined> {
      return then(manifest.chunk(path), (chunk): Found | undefined => {
        // The post's URL negotiates (its JSON and Markdown 404s are the function layer's), so its page varies by Accept.
        const gone = chunk.unavailable[path];
        if (gone !== undefined) return { file: chunk.files[gone]!, negotiated: true, status: 404 };
        const [first, second] = path.split('/').filter(Boolean);
        for (const prefix of [`/${first}/${second}`, `/${first}`, '']) {
          const file = root.notFound[prefix];
          if (file !== undefined) return { file, negotiated: false, status: 404 };
        }
        return undefined;
      });
    },
    /** The bytes of a file in an encoding: from memory when cached, else read (or coded: gzip) once and kept. */
    body(file: ManifestFile, encoding: Encoding): Uint8Array | Promise<Uint8Array> {
      const name = file.file + SUFFIX[encoding];
      const hit = bodies.get(name);
      if (hit) return hit;
      if (encoding === 'gzip' && onDemand.has(file)) return then(gzipped(onDemand.get(file)!), (coded) => coded!);
      return read(name, file).then((body) => {
        bodies.set(name, body);
        return body;
      });
    },
    /**
     * The file as an answer in `header`'s coding sees it: a file stored without its gzip copy, asked
     * for by a client that takes gzip and not br, gets it coded now (kept with the bodies) and its
     * length, as the stored copy had it; any other request the file as it is.
     */
    coded(file: ManifestFile, header: string | undefined): Soon<ManifestFile> {
      if (!gzipOnDemand(file) || chooseEncoding(header, { br: true, gzip: true }) !== 'gzip') return file;
      let done = withGzip.get(file);
      if (done) return done;
      return then(gzipped(file), (coded) => {
        // Not worth it: the file as a build without the copy had it, gzip not offered.
        done = coded ? { ...file, gzip: coded.byteLength } : file;
        withGzip.set(file, done);
        if (coded) onDemand.set(done, file);
        return done;
      });
    },
  };

  /** The gzip coding of a file stored without it, from its bytes (null: it does not pay). */
  function gzipped(file: ManifestFile): Soon<Uint8Array | null> {
    const name = `${file.file}${SUFFIX.gzip}`;
    const hit = bodies.get(name);
    if (hit) return hit;
    const identity = file.file;
    const cached = bodies.get(identity);
    const code = (body: Uint8Array) => {
      const coded = gzipCoding(body);
      if (coded) bodies.set(name, coded);
      return coded;
    };
    return cached ? code(cached) : read(identity, file).then((body) => {
      bodies.set(identity, body);
      return code(body);
    });
  }
}

export type PublishedFiles = ReturnType<typeof publishedFiles>;
