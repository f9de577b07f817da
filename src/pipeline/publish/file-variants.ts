import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { CODINGS, codingPool } from './codings.ts';
import { etagOf } from './file-etag.ts';
import type { variantCache } from '../reuse/variant-cache.ts';
import { COMPRESS_MIN_BYTES, worthCompressing } from '../../artefact/manifest.ts';

/** What the manifest records of a file's bytes. */
export interface FileFacts {
  etag: string;
  length: number;
  br?: number;
  gzip?: number;
  /** The earlier build whose folder holds the file and its variants (reuse.ts), when not this one. */
  holder?: string;
}

/**
 * How many of the most recent distinct bytes (and folders) a writer remembers: a file with the same
 * bytes as one of them is linked to it with its variants; farther apart, it is written and coded again
 * (or its codings taken from the cache), the same bytes under its name. Same bytes come close together
 * (a post's fallback answers, its legacy alias), and remembering every one grew with the corpus (at
 * 1,000 x 14, some 100,000 promises with 48,000 digests and their files' names in the answers step).
 */
export const RECENT = 16_384;

/** Adds to a map or set and forgets its oldest entry past `limit`. */
function remember<K>(seen: Map<K, unknown> | Set<K>, limit: number, add: () => void): void {
  add();
  if (seen.size > limit) seen.delete(seen.keys().next().value!);
}

/** A file's bytes, or how to read them (a file another step wrote). */
type Content = string | Uint8Array | (() => Promise<Uint8Array>);

/**
 * The live build's file of the same name and the same bytes (reuse.ts), linked with its variants
 * and its facts (recorded by the source); `withBody` false when the file is already in place. Undefined when it has none.
 */
export type LiveSource = (file: string, etag: string, withBody: boolean) => Promise<FileFacts | undefined>;

/**
 * Writes files into the static artefact with their precompressed variants (CODINGS: `.br`) and
 * records their facts, with at most `concurrency` in flight (compression runs on `codingThreads`
 * threads of its own, so writes overlap with the emitters' work). The same bytes under another name
 * get their variants linked rather than compressed again, and so are bytes an earlier build coded
 * (`cache`). The pages process's writer codes on a thread per core: its manifest step runs alone.
 * With `sink`, each file's facts go there as they are made and are not kept (`facts` stays empty):
 * the answers step hands them to the manifest step so (answers-log.ts).
 */
export function variantWriter(dir: string, cache?: ReturnType<typeof variantCache>, { codingThreads = availableParallelism(), concurrency = 16, sink, recent = RECENT }: { codingThreads?: number; concurrency?: number; sink?: (file: string, facts: FileFacts) => void; recent?: number } = {}) {
  const pool = codingPool(codingThreads);
  const facts = new Map<string, FileFacts>();
  const record = sink ?? ((file: string, f: FileFacts) => void facts.set(file, f));
  const byEtag = new Map<string, Promise<{ file: string; br?: number; gzip?: number }>>();
  const made = new Set<string>();
  let live: LiveSource | undefined;
  const firstOf = new Map<string, Promise<string>>();
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;

  /** Each folder made once (synchronously, like the links that fill it), however many files go into it. */
  function ensureDir(file: string): void {
    const d = dirname(file);
    if (made.has(d)) return;
    mkdirSync(d, { recursive: true });
    remember(made, recent, () => made.add(d));
  }

  async function variants(file: string, body: Uint8Array, etag: string): Promise<{ br?: number; gzip?: number }> {
    const first = byEtag.get(etag);
    if (first) {
      const v = await first;
      for (const [ext, length] of [['br', v.br], ['gz', v.gzip]] as const) {
        if (length !== undefined) linkSync(join(dir, `${v.file}.${ext}`), join(dir, `${file}.${ext}`));
      }
      return { br: v.br, gzip: v.gzip };
    }
    const making = (async () => {
      const digest = etag.slice(1, -1);
      const out: { file: string; br?: number; gzip?: number } = { file };
      const at = (ext: string) => join(dir, `${file}.${ext}`);
      // Each coding from the cache where an earlier build made it; the others made on the pool's thread.
      const cached = await Promise.all(CODINGS.map((c) => cache?.take(digest, c.ext, at(c.ext))));
      CODINGS.forEach((c, i) => {
        const length = cached[i];
        if (typeof length === 'number') out[c.key] = length;
      });
      const missing = CODINGS.filter((_, i) => cached[i] === undefined);
      const coded = missing.length > 0 ? await pool.code(body, missing.map((c) => c.ext)) : [];
      missing.forEach(({ ext, key }, i) => {
        const bytes = coded[i]!;
        const worth = worthCompressing(bytes.byteLength, body.byteLength);
        if (cache) cache.put(digest, ext, worth ? bytes : undefined, at(ext));
        else if (worth) writeFileSync(at(ext), bytes);
        if (worth) out[key] = bytes.byteLength;
      });
      return out;
    })();
    remember(byEtag, recent, () => byEtag.set(etag, making));
    const v = await making;
    return { br: v.br, gzip: v.gzip };
  }

  /** Records a file's facts (writing it first unless `alreadyWritten`), variants included. */
  async function process(file: string, content: Content, compressible: boolean, alreadyWritten: boolean): Promise<void> {
    const body = typeof content === 'function' ? await content() : typeof content === 'string' ? new TextEncoder().encode(content) : content;
    const etag = etagOf(body);
    // The live build's file, its facts recorded by `live`.
    if (await live?.(file, etag, !alreadyWritten)) return;
    if (!alreadyWritten) {
      ensureDir(join(dir, file));
      // The same bytes under another name (the legacy alias, a fallback equal to the translation): a link.
      const same = firstOf.get(etag);
      if (same) linkSync(join(dir, await same), join(dir, file));
      else {
        // Synchronous: a page or an answer is written in microseconds, less than its three trips
        // through libuv's pool (open, write, close) cost, and some 200,000 are written at 1,000 x 14.
        const written = Promise.resolve(file);
        remember(firstOf, recent, () => firstOf.set(etag, written));
        writeFileSync(join(dir, file), body);
      }
    }
    const f: FileFacts = { etag, length: body.byteLength };
    if (compressible && body.byteLength >= COMPRESS_MIN_BYTES) {
      const v = await variants(file, body, etag);
      if (v.br !== undefined) f.br = v.br;
      if (v.gzip !== undefined) f.gzip = v.gzip;
    }
    record(file, f);
  }

  return {
    /** The facts of the files recorded so far (none with a sink). */
    facts,
    /** Records a file's facts (one placed by other means: a live build's file). */
    record,
    ensureDir,
    /** From now on, a file with the same name and bytes as the live build's is linked from it. */
    takeFrom(source: LiveSource): void {
      live = source;
    },
    /** Queues a file; resolves once there is room for another (back-pressure on the emitters). */
    async add(file: string, content: Content, compressible: boolean, alreadyWritten = false): Promise<void> {
      if (failure) throw failure;
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      const p: Promise<void> = process(file, content, compressible, alreadyWritten).then(
        () => void inFlight.delete(p),
        (e: unknown) => {
          failure ??= e;
          inFlight.delete(p);
        },
      );
      inFlight.add(p);
    },
    /** Waits for every queued file; throws the first failure. */
    async flush(): Promise<void> {
      await Promise.all(inFlight);
      if (failure) throw failure;
    },
  };
}
