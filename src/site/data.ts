import { resolve } from 'node:path';
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
