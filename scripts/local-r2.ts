// The local R2 bucket of a Workers project past the assets' file limit, filled for
// `npm run preview:cloudflare`: miniflare's own R2 (the one `wrangler dev` runs), persisted in the
// folder wrangler is then given as --persist-to, one put per object of the project's r2/ folder.
// (`wrangler r2 object put --local` does the same one process per object: minutes for thousands;
// `npm run upload:r2 -- --local` batches them, for a bucket kept between runs.)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { filesUnder } from '../src/fs/files-under.ts';
import { R2_BUCKET } from '../src/pipeline/targets/cloudflare.ts';

/** What is used of miniflare's R2 bucket (workerd's R2Bucket). */
export interface LocalR2 {
  put(key: string, value: Uint8Array): Promise<unknown>;
  list(options?: { cursor?: string; limit?: number }): Promise<{ objects: { key: string; etag: string }[]; truncated: boolean; cursor?: string }>;
}

/** The local bucket persisted under `persistTo`, open for `use`, then closed. */
export async function withLocalR2<T>(persistTo: string, use: (bucket: LocalR2) => Promise<T>): Promise<T> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      script: 'export default { fetch: () => new Response(null, { status: 404 }) }',
      modules: true,
      r2Buckets: { ARTEFACT: R2_BUCKET },
      // Where `wrangler dev --persist-to <persistTo>` keeps its state (wrangler's getDefaultPersistRoot).
      resourcePersistencePath: join(persistTo, 'v3'),
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  try {
    return await use((await mf.getR2Bucket('ARTEFACT')) as unknown as LocalR2);
  } finally {
    await mf.dispose();
  }
}

/** Puts every file under `dir` (its key: the path below `dir`) into the local bucket persisted under `persistTo`; how many. */
export async function fillLocalR2(dir: string, persistTo: string): Promise<number> {
  return withLocalR2(persistTo, async (bucket) => {
    const keys = filesUnder(dir).map((name) => name.slice(1));
    // A few puts at a time: each is a request to workerd.
    for (let i = 0; i < keys.length; i += 128) await Promise.all(keys.slice(i, i + 128).map(async (key) => bucket.put(key, await readFile(join(dir, key)))));
    return keys.length;
  });
}
