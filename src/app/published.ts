import { FORMATS } from '../core/formats.ts';
import { negotiate } from '../core/negotiate.ts';
import { canonicalQuery } from '../core/params.ts';
import type { Manifest, ManifestFile, ManifestPath, Offer } from '../artefact/manifest.ts';
import { boundedCache } from '../../functions/bounded-cache.ts';
import type { Encoding } from './encoding.ts';

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

/**
 * A build's published answers, as the app sees them: one lookup from path, query and Accept to
 * a file, and the file's bytes from a bounded memory cache (the build never changes once live).
 */
export function publishedFiles(manifest: Manifest, read: ReadFile, cacheBytes: number, skip: ReadonlySet<string> = new Set()) {
  const paths = new Map<string, ManifestPath>(Object.entries(manifest.paths).filter(([p]) => !skip.has(p)));
  const bodies = boundedCache<Uint8Array>(cacheBytes, (b) => b.byteLength);

  function answerOf(entry: ManifestPath, search: string): ManifestPath['answers'][string] | undefined {
    if (search === '' || (entry.query === 'none' && !entry.offers)) return entry.answers[''];
    let query: string;
    try {
      query = canonicalQuery(entry.query, new URLSearchParams(search));
    } catch {
      return undefined; // an invalid query is the function layer's to answer (400)
    }
    return entry.answers[query];
  }

  return {
    /** The published answer for a request, if there is one. `search` is without '?'. */
    find(path: string, search: string, accept: string | undefined): Found | undefined {
      const entry = paths.get(path);
      if (!entry) return undefined;
      const answer = answerOf(entry, search);
      if (answer === undefined) return undefined;
      if (typeof answer === 'number') return { file: manifest.files[answer]!, negotiated: false };
      // A negotiated URL with a query (/fr/post?fallback=en) is the function layer's to answer.
      if (search !== '') return undefined;
      const offers = entry.offers!.map((o) => FORMATS[o]);
      const chosen = negotiate(accept ?? null, offers).name as Offer;
      const i = answer[chosen];
      return i === undefined ? undefined : { file: manifest.files[i]!, negotiated: true };
    },
    /** The page published at a path (for negotiating functions and canonical redirects). */
    page(path: string): ManifestFile | undefined {
      const answer = paths.get(path)?.answers[''];
      if (answer === undefined) return undefined;
      const i = typeof answer === 'number' ? answer : answer.html;
      const file = i === undefined ? undefined : manifest.files[i];
      return file?.type.startsWith('text/html') ? file : undefined;
    },
    /**
     * The published not-found page for a page path: the post's own when its translation is
     * unavailable, else its root's, in its language.
     */
    notFound(path: string): Found | undefined {
      // The post's URL negotiates (its JSON and Markdown 404s are the function layer's), so its page varies by Accept.
      const gone = manifest.unavailable[path];
      if (gone !== undefined) return { file: manifest.files[gone]!, negotiated: true, status: 404 };
      const [first, second] = path.split('/').filter(Boolean);
      for (const prefix of [`/${first}/${second}`, `/${first}`, '']) {
        const i = manifest.notFound[prefix];
        if (i !== undefined) return { file: manifest.files[i]!, negotiated: false, status: 404 };
      }
      return undefined;
    },
    /** The bytes of a file in an encoding: from memory when cached, else read once and kept. */
    body(file: ManifestFile, encoding: Encoding): Uint8Array | Promise<Uint8Array> {
      const name = file.file + SUFFIX[encoding];
      const hit = bodies.get(name);
      if (hit) return hit;
      return read(name, file).then((body) => {
        bodies.set(name, body);
        return body;
      });
    },
  };
}

export type PublishedFiles = ReturnType<typeof publishedFiles>;
