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

/**
 * The root a site path belongs to, and the path inside it. A server passes the roots of the build
 * it serves (pages rendered on demand must not read whichever build is live by then).
 */
export async function rootOf(pathname: string, served?: SiteRoot[]): Promise<{ root: SiteRoot; path: string }> {
  const all = served ?? (await roots());
  const sandbox = all.find((r) => r.base && (pathname === r.base || pathname.startsWith(`${r.base}/`)));
  if (sandbox) return { root: sandbox, path: pathname.slice(sandbox.base.length) || '/' };
  return { root: all.find((r) => r.base === '')!, path: pathname };
}
