import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Reuse } from '../build/reuse.ts';
import { loadCore } from '../build/load-bundle.ts';
import { DIST, ROOTS } from '../build/roots.ts';
import type { Core } from '../core/index.ts';

/** The cores the pages render from, one per content root, loaded once per process. */
export interface SiteRoot {
  name: 'main' | 'sandbox';
  base: string;
  core: Core;
}

let loaded: Promise<SiteRoot[]> | undefined;

export function roots(): Promise<SiteRoot[]> {
  const dir = process.env.FOLIO_DIST_ROOT ?? process.cwd();
  loaded ??= Promise.all(ROOTS.map(async (r) => ({ name: r.name, base: r.base, core: await loadCore(resolve(dir, DIST.bundle(r.name))) })));
  return loaded;
}

/**
 * Posts whose pages the live build already holds (src/build/reuse.ts), by root: `npm run build`
 * links those pages instead of rendering them. FOLIO_REUSE names the build's reuse file.
 */
export function reusedPosts(): Map<string, Set<string>> {
  const file = process.env.FOLIO_REUSE;
  const reuse = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Reuse) : undefined;
  return new Map(Object.entries(reuse?.posts ?? {}).map(([root, slugs]) => [root, new Set(slugs)]));
}
