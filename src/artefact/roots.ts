/** The content roots Folio builds: the site and the sandbox, same layout, same code. */
export interface RootSpec {
  name: 'main' | 'sandbox';
  contentDir: string;
  base: string;
  /** A signing key that is public on purpose, so clients can test signature checks. */
  publishedSigningKey?: string;
}

export const SANDBOX_SIGNING_KEY = 'folio-sandbox-signing-key';

export const ROOTS: readonly RootSpec[] = [
  { name: 'main', contentDir: process.env.FOLIO_CONTENT ?? 'content', base: '' },
  { name: 'sandbox', contentDir: 'sandbox', base: '/sandbox', publishedSigningKey: SANDBOX_SIGNING_KEY },
];

/** The folders of one build: bundles, the static artefact (client), the manifest. */
export interface BuildLayout {
  dir: string;
  bundle: (name: string) => string;
  /** What a static host serves, as it is. */
  client: string;
  /** The build manifest's root, its chunks beside it in `manifest/` (not published). */
  manifest: string;
}

export function buildLayout(dir: string): BuildLayout {
  return {
    dir,
    bundle: (name) => `${dir}/bundle/${name}`,
    client: `${dir}/site/client`,
    manifest: `${dir}/manifest.json`,
  };
}

/**
 * Where builds are published (relative to the project, or FOLIO_DIST_ROOT at run time; FOLIO_OUT
 * moves it): each build is written into `builds/<id>` and goes live when the `current` link is
 * switched to it, in one rename.
 */
const OUT = process.env.FOLIO_OUT ?? 'dist';
export const PUBLISH = { out: OUT, builds: `${OUT}/builds`, current: `${OUT}/current` };

/** Work kept between builds (renders, codings, contracts), by content digest; FOLIO_CACHE moves it. */
export const CACHE_DIR = process.env.FOLIO_CACHE ?? '.folio-cache';

/** The build being written (FOLIO_BUILD_DIR, set by `npm run build` for its steps), else the live one. */
export const DIST: BuildLayout = buildLayout(process.env.FOLIO_BUILD_DIR ?? PUBLISH.current);

/** Where `npm run build` puts the promise that the bundle step has written the search indexes (src/site/data.ts). */
export const SEARCH_INDEXES_WRITTEN = Symbol.for('folio.search-indexes-written');
