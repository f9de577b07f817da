import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The post pages' bodies as the reader sees them (`readerHtml`, src/site/reader-html.ts), made by
 * the render step from the tree it already has and left for this build's pages in the build's
 * folder, `reader-bodies/<root>/<slug>/<lang>.html`: a page reads its body instead of parsing the
 * HTML again (a tenth of the pages' time). Not part of the artefact: `npm run build` removes the
 * folder once Astro is done. A post whose entry was not rendered in this build (taken from the live
 * build or a shard) has none, and its page makes its body from the HTML as before.
 */
export const READER_BODIES = 'reader-bodies';

/** Where the bundle step of the build in `buildDir` leaves a root's reader bodies. */
export const readerBodiesDir = (buildDir: string, root: string) => join(buildDir, READER_BODIES, root);

/** This build's reader body of a post in `lang`, if its render step made one. */
export function readerBody(root: string, slug: string, lang: string): string | undefined {
  const dir = process.env.FOLIO_BUILD_DIR;
  if (!dir) return undefined;
  try {
    return readFileSync(join(readerBodiesDir(dir, root), slug, `${lang}.html`), 'utf8');
  } catch {
    return undefined;
  }
}
