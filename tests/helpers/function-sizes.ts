import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** A function of constant size, on every host: the most it may weigh at any corpus size (issue 38). */
export const FUNCTION_LIMIT_BYTES = 10 * 1024 * 1024;

async function bytesUnder(dir: string): Promise<number> {
  let bytes = 0;
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) if (e.isFile()) bytes += (await stat(join(e.parentPath, e.name))).size;
  return bytes;
}

/** The worker as `wrangler deploy` would upload it (a dry run, bundled into a folder of its own; its source map is not uploaded). */
async function workerBytes(config: string): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-worker-'));
  try {
    await promisify(execFile)(process.execPath, [resolve('node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', dir, '-c', config], {
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
      timeout: 180_000,
    });
    return (await stat(join(dir, 'worker.js'))).size;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * What each host deploys as its function, in bytes, from the host projects under `out` (a build's
 * FOLIO_OUT): the worker as wrangler bundles it, Netlify's functions folder with the module its
 * entry imports (and nothing included beside), Vercel's `.func` folder.
 */
export async function functionSizes(out: string): Promise<Record<'cloudflare' | 'netlify' | 'vercel', number>> {
  return {
    cloudflare: await workerBytes(join(out, 'cloudflare', 'wrangler.jsonc')),
    netlify: (await bytesUnder(join(out, 'netlify', 'functions'))) + (await bytesUnder(join(out, 'netlify', 'function'))),
    vercel: await bytesUnder(join(out, 'vercel', '.vercel', 'output', 'functions', 'folio.func')),
  };
}
