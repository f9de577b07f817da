import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { HOLDERS_FILE } from '../live/go-live.ts';
import { ROUTES } from '../../../functions/routes.ts';
import type { Host, Root } from '../../../functions/context.ts';
import { ROOTS as ROOT_SPECS, type BuildLayout } from '../../artefact/roots.ts';
import { contentRoots, instanceHost } from '../../app/build.ts';
import { appSettings } from '../../app/settings.ts';
import { loadCore } from '../../bundle/load-bundle.ts';
import { emitFeeds } from './feeds.ts';
import { emitSitemap } from './sitemap.ts';
import { emitLlmsFull } from '../../discovery/llms-full.ts';
import { emitStaticApi, postAnswerPaths, type TakenFromLive } from './static-api.ts';
import { availableLanguages } from '../../core/availability.ts';
import { paths } from '../../core/urls.ts';
import { placeTree } from '../reuse/place-file.ts';
import { emitSkills } from './skills.ts';
import { diskPublisher, type PublishedAnswer } from './publisher.ts';
import { writeManifest } from './write-manifest.ts';
import type { variantCache } from '../reuse/variant-cache.ts';
import { variantWriter } from './file-variants.ts';
import type { AnswersLog } from './answers-log.ts';
import { liveBuildFiles } from '../reuse/reuse.ts';
import { LIST_PAGES_FILE, reusableListPages, type ListPageDigests, type Reuse, type ShardPages } from '../../site/page-reuse.ts';
import { readJson } from '../../fs/read-json.ts';
import { emitHostFiles } from './host-files.ts';
import type { Manifest } from '../../artefact/manifest.ts';
import type { Phase, Timings } from '../timings.ts';
import pkg from '../../../package.json' with { type: 'json' };

/** What the answers step (its own process, beside Astro) hands to the manifest step (the rest, its files' facts, are recorded already: answers-log.ts). */
export interface PublishedAnswers {
  answers: PublishedAnswer[];
  phases: Phase[];
}

/** The roots with their cores and the host whose limits the published guides print (loaded once per process). */
export type PublishHost = Awaited<ReturnType<typeof publishHost>>;

export async function publishHost(layout: BuildLayout) {
  // Published answers sign nothing: the published key is the only one a document may print.
  // No search indexes loaded in the background: the build searches once, for an OpenAPI example
  // (the answers step once they are written, publishAnswers).
  // Read synchronously: a build's step serves nothing meanwhile (load-bundle.ts).
  const roots = await contentRoots('', (name) => loadCore(layout.bundle(name), { warm: false, present: false, blocking: true }));
  // The limits the guides print are the server's settings; nothing else of the host reaches a file.
  const host: Host = { ...instanceHost({ ...appSettings(process.env), mcpAllowedOrigins: [], answerCacheBytes: 0 }, hostname(), pkg.version), roots, assets: { fetch: async () => undefined } };
  return { roots, host };
}

/**
 * Takes from the live build what the answers step would make again for its unchanged posts: their
 * detail answers. Their pages and Markdown twins are taken by the pages process (takePagesFromLive),
 * which has time to spare once Astro is done. Returns what is taken, for the answers made next to
 * leave out.
 */
async function takeAnswersFromLive(reuse: Reuse, roots: readonly Root[], out: ReturnType<typeof diskPublisher>, layout: BuildLayout): Promise<TakenFromLive> {
  const live = await liveBuildFiles(reuse, out, layout.client);
  const taken = { answers: new Set<string>(), files: new Set<string>() };
  for (const { name, base, core } of roots) {
    for (const slug of reuse.posts[name] ?? []) {
      const post = core.index.bySlug.get(slug);
      if (!post) continue;
      for (const api of postAnswerPaths(base, slug)) {
        if (!live.hasAnswers(api)) continue;
        taken.answers.add(api);
        for (const answer of (await live.answers(api))!) out.published(answer);
      }
      for (const lang of availableLanguages(post, core.index.policy)) {
        const twin = paths.markdown(core.catalog, slug, lang);
        if (live.has(twin)) taken.files.add(twin);
      }
    }
  }
  return taken;
}

/**
 * The build's answers, run in a process of its own while Astro renders the pages (they share
 * nothing but the bundles): every answer that is a function of the path (API, discovery documents,
 * Markdown twins) as files beside the pages (DESIGN.md: publish, then serve by lookup), and in a
 * clean build the feeds, sitemaps, skills and media too (publishFeeds: in an incremental build the
 * pages process makes them). A shard of a sharded build (`shard`: its posts by root) makes its
 * posts' answers and Markdown twins only.
 */
export async function publishAnswers(layout: BuildLayout, timings: Timings, searchWritten: Promise<unknown>, log: AnswersLog, codings?: ReturnType<typeof variantCache>, reuse?: Reuse, shard?: ShardPages): Promise<void> {
  const site = await publishHost(layout);
  const { roots, host } = site;
  // Every answer and every file's facts go to the log as they are made: nothing here grows with them.
  const out = diskPublisher(layout.client, log.answer, variantWriter(layout.client, codings, { codingThreads: 1, sink: log.facts }));
  // Taken while the bundle step still writes the search indexes: nothing here searches.
  const taken = reuse && (await timings.time('publish: unchanged posts\' answers taken from the live build', () => takeAnswersFromLive(reuse, roots, out, layout)));
  // A clean build makes its answers once the indexes are written: beside the indexing and Astro, they
  // took its peak memory from 1.0x to 1.17x Hugo's. An incremental build, with a fraction of that
  // memory, makes them at once, and only what searches waits (the OpenAPI example).
  // A shard's answers (its posts') never search, and are few: made at once.
  if (!reuse && !shard) await searchWritten;
  await timings.time('publish: API answers and discovery', async () => {
    for (const root of roots) await emitStaticApi(root, host, out, taken, searchWritten, shard && new Set(shard.posts[root.name] ?? []));
  });
  if (!reuse && !shard) await publishFeeds(site, layout, out.files, timings);
  await out.files.flush();
}

/**
 * Feeds, sitemaps, agent skills and media. In an incremental build the pages process makes them once
 * Astro is done and the live build's pages are linked, while the answers step still makes the API's
 * answers, the longer of the two (a one-edit rebuild: 1 s off its longest path). In a clean build the
 * answers step does: the pages process still holds Astro's memory then, and cores loaded beside it
 * took the build's peak from 1.0x to 1.16x Hugo's.
 */
export async function publishFeeds({ roots }: PublishHost, layout: BuildLayout, written: ReturnType<typeof variantWriter>, timings: Timings): Promise<void> {
  const out = diskPublisher(layout.client, () => {
    throw new Error('feeds, sitemaps, skills and media are files, not answers');
  }, written);
  await timings.time('publish: feeds, sitemaps, skills, media', async () => {
    for (const root of roots) {
      await emitFeeds(root.core, out);
      await emitSitemap(root.core, out);
      await emitLlmsFull(root.core, (path, text) => out.write(path, text));
      await emitSkills(root.core, out);
      const media = join(layout.bundle(root.name), 'media');
      // Linked, not copied: the bundle's media are never written again. Those of unchanged posts are taken from the live build already (takePagesFromLive, in the pages process, whose writer keeps its facts; a clean build's answers step, whose writer keeps none, has taken none).
      if (existsSync(media)) placeTree(media, join(layout.client, root.base, 'media'), written.ensureDir, (file) => written.facts.has(`${root.base}/media${file}`));
    }
    await written.flush();
  });
}

/**
 * The pages the live build holds as this build would render them, taken into this build (where the
 * live build holds them) by the pages process once Astro is done (while the answers step still runs):
 * the pages of unchanged posts in every language with their Markdown twins and media, and the list
 * pages Astro left out (src/site/data.ts). From then on, a page Astro wrote with the live build's bytes gets its
 * facts and variants from it too.
 */
export async function takePagesFromLive(layout: BuildLayout, reuse: Reuse, written: ReturnType<typeof variantWriter>): Promise<void> {
  const live = await liveBuildFiles(reuse, { files: written }, layout.client);
  const [now, before] = await Promise.all([readJson<ListPageDigests>(join(layout.dir, LIST_PAGES_FILE)), readJson<ListPageDigests>(join(reuse.from, LIST_PAGES_FILE))]);
  const lists = reusableListPages(now ?? {}, before, reuse);
  console.log(`incremental: ${lists.length} list pages taken from the live build`);
  for (const page of lists) if (!(await live.file(page))) throw new Error(`the live build lists ${page} but does not hold it`);
  for (const { name, base } of ROOT_SPECS) for (const slug of reuse.posts[name] ?? []) await live.post(base, slug);
}

/**
 * The last step, once Astro has written the pages and the answers step its files: the static
 * host's files and the manifest of all of them (`written` holds what this process placed).
 */
export async function publishManifest(layout: BuildLayout, build: string, { roots, host }: PublishHost, published: PublishedAnswers, written: ReturnType<typeof variantWriter>, timings: Timings, codings?: ReturnType<typeof variantCache>): Promise<Manifest> {
  await emitHostFiles(layout.client);
  const configDependent = ROUTES.filter((r) => r.printsLimits).flatMap((r) => roots.map((root) => `${root.base}${r.path}`));
  const manifest = await timings.time('publish: manifest (pages and assets read, coded)', () =>
    writeManifest({ build, clientDir: layout.client, written, answers: published.answers, cores: roots.map((r) => r.core), limits: host.limits, configDependent }, layout.manifest),
  );
  await writeFile(join(layout.dir, HOLDERS_FILE), JSON.stringify(manifest.holders));
  // Codings of files taken from the live build stay cached too: a later build with other code needs them.
  for (const f of manifest.files) codings?.keep(f.etag.slice(1, -1));
  return manifest;
}
