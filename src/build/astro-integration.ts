import { cp } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AstroIntegration } from 'astro';
import { loadCore } from './load-bundle.ts';
import { DIST, ROOTS } from './roots.ts';
import { emitFeeds } from './emit/feeds.ts';
import { emitSitemap } from './emit/sitemap.ts';
import { emitStaticApi } from './emit/static-api.ts';
import { emitSkills } from './emit/skills.ts';
import { diskPublisher } from './emit/publisher.ts';

/**
 * After Astro has written the pages, write what is not a page from the bundles: static API
 * JSON, Markdown twins, feeds, sitemaps, agent skills and media (DESIGN.md: emitters, not 14,000 endpoints).
 */
export function folioEmitter(): AstroIntegration {
  return {
    name: 'folio-emitter',
    hooks: {
      'astro:build:done': async ({ logger }) => {
        const out = diskPublisher(DIST.client);
        for (const root of ROOTS) {
          const bundle = DIST.bundle(root.name);
          const core = await loadCore(bundle);
          await emitStaticApi(core, out);
          await emitFeeds(core, out);
          await emitSitemap(core, out);
          await emitSkills(core, out);
          if (existsSync(join(bundle, 'media'))) await cp(join(bundle, 'media'), join(DIST.client, root.base, 'media'), { recursive: true });
        }
        logger.info(`wrote ${out.count()} static files`);
      },
    },
  };
}
