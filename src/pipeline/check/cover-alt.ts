import { join } from 'node:path';
import { DEFAULT_LANGUAGE } from '../../core/languages.ts';
import type { PostRecord } from '../../core/types.ts';
import type { PostLinks } from './links.ts';

/**
 * A warning (the build goes on) for each post whose cover has no alt text: its page gives the image
 * `alt=""`, as a decoration, and a reader who cannot see it is told nothing. Judged on the bundled
 * records, so a post taken from the live build is warned about too.
 */
export function coverAltWarnings(posts: readonly PostRecord[], postsDir: string, links: PostLinks): string[] {
  return posts
    .filter((p) => p.featured_image && !p.entries[DEFAULT_LANGUAGE]?.alts?.[p.featured_image])
    .map((p) => {
      const name = links[p.slug]?.find((f) => f.lang === DEFAULT_LANGUAGE)?.name ?? 'en.md';
      return `${join(postsDir, p.slug, name)}: featured_image: has no featured_image_alt, so the cover is shown with alt="" (add featured_image_alt: the text a reader who cannot see it reads)`;
    });
}
