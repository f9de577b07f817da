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

/** Output folders, relative to the project (or FOLIO_DIST_ROOT at run time). FOLIO_OUT moves them. */
const OUT = process.env.FOLIO_OUT ?? 'dist';

export const DIST = {
  out: OUT,
  bundle: (name: string) => `${OUT}/bundle/${name}`,
  client: `${OUT}/site/client`,
  server: `${OUT}/site/server`,
};
