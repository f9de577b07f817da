import { cp } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createFunctions, ROUTES } from '../../functions/routes.ts';
import type { Host } from '../../functions/context.ts';
import type { BuildLayout } from './roots.ts';
import { contentRoots, instanceHost } from '../app/build.ts';
import { appSettings } from '../app/settings.ts';
import { loadCore } from './load-bundle.ts';
import { emitFeeds } from './emit/feeds.ts';
import { emitSitemap } from './emit/sitemap.ts';
import { emitStaticApi, type ReusedPosts } from './emit/static-api.ts';
import { emitSkills } from './emit/skills.ts';
import { diskPublisher } from './emit/publisher.ts';
import { writeManifest } from './write-manifest.ts';
import type { variantCache } from './variant-cache.ts';
import { liveBuildFiles, type Reuse } from './reuse.ts';
import { emitHostFiles } from './emit/host-files.ts';
import type { Manifest } from '../publish/manifest.ts';
import type { Timings } from './timings.ts';
import pkg from '../../package.json' with { type: 'json' };

/**
 * The last phase of a build, after Astro has written the pages: every answer that is a function of
 * the path (API, discovery documents, Markdown twins, feeds, sitemaps, agent skills, media) as
 * files beside the pages, then the manifest of all of them (DESIGN.md: publish, then serve by lookup).
 */
export async function publishBuild(layout: BuildLayout, build: string, timings?: Timings, codings?: ReturnType<typeof variantCache>, reuse?: Reuse): Promise<Manifest> {
  const time = <T>(phase: string, run: () => Promise<T>) => (timings ? timings.time(phase, run) : run());
  // Published answers sign nothing: the published key is the only one a document may print.
  const roots = await contentRoots('', (name) => loadCore(layout.bundle(name)));
  // The limits the guides print are the server's settings; nothing else of the host reaches a file.
  const host: Host = { ...instanceHost({ ...appSettings(process.env), mcpAllowedOrigins: [], answerCacheBytes: 0 }, hostname(), pkg.version), roots, assets: { fetch: async () => undefined } };
  const functions = createFunctions(host);
  const out = diskPublisher(layout.client, codings);
  const live = reuse ? await liveBuildFiles(reuse, out, layout.client) : undefined;
  const reusedIn = (root: string): ReusedPosts | undefined =>
    live && reuse?.posts[root]
      ? {
          slugs: new Set(reuse.posts[root]),
          answers: async (path) => {
            const taken = await live.answers(path);
            if (taken) out.answers.push(...taken);
            return taken !== undefined;
          },
          file: (sitePath) => live.file(sitePath),
        }
      : undefined;
  if (live && reuse) {
    await time('publish: pages of unchanged posts (linked)', async () => {
      for (const root of roots) for (const slug of reuse.posts[root.name] ?? []) await live.pages(root.base, slug);
    });
  }
  await time('publish: API answers and discovery', async () => {
    for (const root of roots) await emitStaticApi(root, functions, out, reusedIn(root.name));
  });
  await time('publish: feeds, sitemaps, skills, media', async () => {
    for (const root of roots) {
      await emitFeeds(root.core, out);
      await emitSitemap(root.core, out);
      await emitSkills(root.core, out);
      const media = join(layout.bundle(root.name), 'media');
      if (existsSync(media)) await cp(media, join(layout.client, root.base, 'media'), { recursive: true });
    }
    await out.files.flush();
    await emitHostFiles(layout.client);
  });
  const configDependent = ROUTES.filter((r) => r.printsLimits).flatMap((r) => roots.map((root) => `${root.base}${r.path}`));
  const manifest = await time('publish: manifest (pages and assets read, coded)', () =>
    writeManifest({ build, clientDir: layout.client, written: out.files, answers: out.answers, cores: roots.map((r) => r.core), limits: host.limits, configDependent }, layout.manifest),
  );
  // Codings of files linked from the live build stay cached too: a later build with other code needs them.
  for (const f of manifest.files) codings?.keep(f.etag.slice(1, -1));
  return manifest;
}
