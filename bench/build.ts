// `npm run bench:build -- [N]`: Folio's full build and one-edit rebuild of N synthetic essays x 14
// languages, against Hugo building the same corpus in the same run (when `hugo` is installed).
import { spawnSync } from 'node:child_process';
import { appendFile, rm } from 'node:fs/promises';
import { filesUnder, measure, type Run } from './measure.ts';
import { join } from 'node:path';
import { slugOf, writeCorpus, writeHugoSite } from './synthetic-corpus.ts';

const count = Number(process.argv[2] ?? 1000);
if (!Number.isInteger(count) || count < 1) throw new Error('usage: npm run bench:build -- <essays>');
const WORK = 'bench/.corpus';

const folioEnv = (content: string) => ({ FOLIO_CONTENT: content, FOLIO_OUT: `${WORK}/dist`, FOLIO_CACHE: `${WORK}/cache` });
const node = process.execPath;

async function folioFull(n: number): Promise<Run> {
  const content = `${WORK}/content-${n}`;
  await writeCorpus(content, n, 'content/posts/tidal-energy/figure-1.jpg');
  // Clean: no cache and no live build to take unchanged posts from.
  await rm(`${WORK}/cache`, { recursive: true, force: true });
  await rm(`${WORK}/dist`, { recursive: true, force: true });
  return measure(node, ['scripts/build.ts', '--timings'], folioEnv(content));
}

/** The `--timings` table a Folio build printed, after what an incremental build took from the live one. */
const phaseTable = (r: Run) => [...r.out.matchAll(/^incremental: .*$/gm)].map((m) => m[0]).concat(r.out.slice(r.out.indexOf('\nphase ') + 1).trimEnd()).join('\n');

const row = (label: string, r: Run, entries: number) =>
  `${label.padEnd(34)} ${r.seconds.toFixed(1).padStart(7)} s ${String(r.peakMb).padStart(7)} MB ${((r.seconds * 1000) / entries).toFixed(2).padStart(8)} ms/entry`;

console.log(`Synthetic corpus: ${count} essays x 14 languages = ${count * 14} entries (2 cores)`);
const small = Math.max(1, Math.floor(count / 4));
const quarter = await folioFull(small);
console.log(row(`folio full build, ${small} x 14`, quarter, small * 14));
const full = await folioFull(count);
console.log(row(`folio full build, ${count} x 14`, full, count * 14));
const published = await filesUnder(`${WORK}/dist`);
console.log(`output: ${published.files} files, ${(published.bytes / 1e6).toFixed(1)} MB`);
console.log(phaseTable(full));
/**
 * An author's edit: one more sentence in the English source of one post, which makes its 13 translations
 * stale (every list in their languages shows it so). Measured EDITS times, each time in another post
 * (each such edit is that post's first), and the median taken: one sample on a shared machine swung by 1-2 s.
 */
const EDITS = 3;
const edit = (root: string, i: number) => appendFile(join(root, slugOf(i), 'en.md'), '\nOne more sentence, edited.\n');
const median = (runs: Run[]) => [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;
const rebuilds: Run[] = [];
for (let i = 0; i < EDITS; i++) {
  await edit(join(`${WORK}/content-${count}`, 'posts'), i);
  rebuilds.push(await measure(node, ['scripts/build.ts', '--timings'], folioEnv(`${WORK}/content-${count}`)));
}
const rebuild = median(rebuilds);
console.log(`folio rebuilds after 1 edit, each in another post: ${rebuilds.map((r) => `${r.seconds.toFixed(1)} s`).join(', ')}; the median's phases:`);
console.log(row(`folio rebuild after 1 edit (median)`, rebuild, count * 14));
console.log(phaseTable(rebuild));
const unchanged = await measure(node, ['scripts/build.ts'], folioEnv(`${WORK}/content-${count}`));
console.log(row(`folio build with no change`, unchanged, count * 14));
console.log(`one-edit rebuild (median): ${((rebuild.seconds / full.seconds) * 100).toFixed(1)} % of the clean build (target <= 10 %); no change: ${((unchanged.seconds / full.seconds) * 100).toFixed(1)} % (target <= 5 %)`);
console.log(`growth: ${(full.seconds / count / (quarter.seconds / small)).toFixed(2)}x time per entry from ${small} to ${count} essays (1.00 = linear)`);

interface Floor {
  written: { files: number; bytes: number; seconds: number; user: number; sys: number };
  coding?: { bodies: number; bytes: number; seconds: number };
}
/** bench/write-floor.ts on a build's output: writing its files with nothing computed (and making its codings alone). */
async function writeFloor(kind: 'folio' | 'folder', from: string): Promise<Floor> {
  const to = `${WORK}/floor`;
  await rm(to, { recursive: true, force: true });
  const run = await measure(node, ['bench/write-floor.ts', kind, from, to], {});
  await rm(to, { recursive: true, force: true });
  return JSON.parse(run.out) as Floor;
}
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const wrote = (w: Floor['written']) => `${w.files} files, ${mb(w.bytes)}: ${w.seconds.toFixed(1)} s (user ${w.user.toFixed(1)} s, sys ${w.sys.toFixed(1)} s)`;
// What Folio's artefact costs this disk and these cores before anything is computed: the clean
// build's lower bound here, to read the ratio against Hugo by.
const folioFloor = await writeFloor('folio', `${WORK}/dist`);
console.log(`floor, nothing computed: folio's artefact written from memory, ${wrote(folioFloor.written)}`);
const coding = folioFloor.coding!;
console.log(`floor, nothing computed: br + gzip of the ${coding.bodies} bodies folio's build codes (${mb(coding.bytes)}), one core: ${coding.seconds.toFixed(1)} s`);
/** Writing and coding shared perfectly by two cores, with nothing else to do. */
const floorSeconds = (folioFloor.written.seconds + coding.seconds) / 2;
console.log(`floor of folio's clean build on 2 cores (writes + codings, perfectly shared): ${floorSeconds.toFixed(1)} s`);

if (spawnSync('hugo', ['version']).status === 0) {
  await writeHugoSite(`${WORK}/hugo`, count);
  const hugo = await measure('hugo', ['--quiet', '--destination', 'public'], {}, `${WORK}/hugo`);
  console.log(row(`hugo full build, ${count} x 14`, hugo, count * 14));
  const hugoEdits: Run[] = [];
  for (let i = 0; i < EDITS; i++) {
    await appendFile(join(`${WORK}/hugo`, 'content', 'en', 'posts', slugOf(i), 'index.md'), '\nOne more sentence, edited.\n');
    hugoEdits.push(await measure('hugo', ['--quiet', '--destination', 'public'], {}, `${WORK}/hugo`));
  }
  const hugoEdit = median(hugoEdits);
  console.log(row(`hugo rebuild after 1 edit (median)`, hugoEdit, count * 14));
  console.log(`ratio folio/hugo, clean: ${(full.seconds / hugo.seconds).toFixed(2)}x time, ${(full.peakMb / hugo.peakMb).toFixed(2)}x peak memory (target <= 1.00x both)`);
  console.log(`ratio folio/hugo, one edit: ${(rebuild.seconds / hugoEdit.seconds).toFixed(2)}x time, ${(rebuild.peakMb / hugoEdit.peakMb).toFixed(2)}x peak memory`);
  const hugoFloor = await writeFloor('folder', `${WORK}/hugo/public`);
  console.log(`floor, nothing computed: hugo's output written the same way, ${wrote(hugoFloor.written)}`);
  console.log(`ratio of folio's floor to hugo's clean build: ${(floorSeconds / hugo.seconds).toFixed(2)}x time (writing folio's artefact alone: ${(folioFloor.written.seconds / hugo.seconds).toFixed(2)}x); folio's clean build is ${(full.seconds / floorSeconds).toFixed(2)}x its floor`);
} else {
  console.log('hugo not installed (apt-get install -y hugo): no baseline this run');
}
await rm(`${WORK}/dist`, { recursive: true, force: true });
