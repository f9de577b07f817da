// The build's answers step (src/pipeline/publish/publish-build.ts), run by `npm run build` in a process of its
// own while Astro renders the pages in another: FOLIO_BUILD_DIR names the build's folder,
// FOLIO_REUSE what it takes from the live build. Logs what it published for the manifest step, as it goes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { buildLayout, CACHE_DIR } from '../src/artefact/roots.ts';
import { publishAnswers } from '../src/pipeline/publish/publish-build.ts';
import { ANSWERS_FILE, answersLog } from '../src/pipeline/publish/answers-log.ts';
import { phaseTimings } from '../src/pipeline/timings.ts';
import { variantCache } from '../src/pipeline/reuse/variant-cache.ts';
import type { Reuse, ShardPages } from '../src/site/page-reuse.ts';
import { reportFileSystemFailures } from '../src/pipeline/fs-failure.ts';

reportFileSystemFailures('answers step: ');

const dir = process.env.FOLIO_BUILD_DIR;
if (!dir) throw new Error('FOLIO_BUILD_DIR names the build folder (scripts/build.ts sets it)');
// Started with the bundle step (its modules load meanwhile). On stdin: a line with the site URL and
// what is taken from the live build, once the bundle's content is made; its end once the bundle's
// search indexes are written.
const input = createInterface({ input: process.stdin });
const ended = once(input, 'close');
const settings = await Promise.race([once(input, 'line'), ended.then(() => undefined)]);
if (!settings) throw new Error('the build ended before the answers step could start');
Object.assign(process.env, JSON.parse(settings[0] as string) as Record<string, string>);
const reuse = process.env.FOLIO_REUSE ? (JSON.parse(readFileSync(process.env.FOLIO_REUSE, 'utf8')) as Reuse) : undefined;
// A shard of a sharded build (FOLIO_SHARD): its posts' answers only.
const shard = process.env.FOLIO_SHARD ? (JSON.parse(readFileSync(process.env.FOLIO_SHARD, 'utf8')) as ShardPages) : undefined;
// What it publishes is appended to the log as it is made (answers-log.ts); the phases end it.
const log = answersLog(join(dir, ANSWERS_FILE));
const timings = phaseTimings();
await publishAnswers(buildLayout(dir), timings, ended, log, variantCache(join(CACHE_DIR, 'codings')), reuse, shard);
log.close(timings.phases());
// Peak resident memory of this process, for the build benchmark (it runs beside the pages process).
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (answers)`);
