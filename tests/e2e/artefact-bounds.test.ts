import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpath } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder } from '../../src/fs/files-under.ts';
import { CATALOG_PART_BYTES } from '../../src/bundle/catalog-file.ts';
import { TEXT_PART_BYTES } from '../../src/search/texts-codec.ts';
import { OPENING_PIECE_BYTES } from '../../src/search/opening-files.ts';
import { SITEMAP_MAX_BYTES } from '../../src/core/limits.ts';
import { generatedBuild } from '../helpers/generated-build.ts';
import { buildOnly, hostReads } from '../../src/artefact/build-only.ts';

// Every file of a build is bounded in size whatever the corpus (issue 38: a host reads them on demand
// through a bounded cache; Workers refuses an asset past 25 MiB). On a generated corpus large enough
// that a language's snippet texts (about 8 KB an essay) and a catalog (about 4 KB an essay) would
// each pass their bound as one file: the search files and the catalog are parts within theirs, and
// the sitemap within its 10 MB (past 5,000 URLs an index of parts), llms-full.txt and its parts within theirs (set low
// here so that the English posts pass it), every other file within 1 MiB; but the bundle's files that only a later
// build reads (links, digests, FlexSearch's export: buildOnly), which grow with the corpus and no host target ships.
const ESSAYS = 80;
const BOUND = 1024 * 1024;
/** About a fifth of the 80 English posts' Markdown (some 420 KB). */
const LLMS_FULL = 100_000;
const TARGETS = ['cloudflare', 'netlify', 'vercel'];

test(`every file of a build of ${ESSAYS} essays x 14 stays within its bound, and no host target ships what only a build reads`, { timeout: 30 * 60_000 }, async () => {
  // Generous: a clean 100 x 14 build took about a minute here, 3 to 4 at a load of 26 on 2 cores (the targets add about a minute).
  const { code, log, dist } = await generatedBuild(ESSAYS, { args: TARGETS.flatMap((t) => ['--target', t]), env: { FOLIO_LLMS_FULL_MAX_BYTES: String(LLMS_FULL) }, deadlineMs: 25 * 60_000 });
  assert.equal(code, 0, `the build failed:\n${log.slice(-4000)}`);
  const build = await realpath(join(dist, 'current'));
  const sizes = new Map<string, number>();
  for (const file of filesUnder(build)) sizes.set(file.slice(1), statSync(join(build, file)).size);
  const over: string[] = [];
  for (const [file, size] of sizes) {
    const bundled = /^bundle\/[^/]+\/(.+)$/.exec(file)?.[1];
    if (bundled !== undefined && !hostReads(bundled)) continue;
    // The parts within their own bounds; a language's word list, stems and word table (read whole when it opens), whole or pieces, within OPENING_PIECE_BYTES.
    // A sitemap (one urlset, or an index's parts past 5,000 URLs) within SITEMAP_MAX_BYTES.
    const bound = /^site\/client\/(sitemap\.xml|sitemaps\/\d+\.xml)(\.br)?$/.test(file) ? SITEMAP_MAX_BYTES : /^site\/client\/(llms-full\.txt|llms-full\/\d+\.txt)(\.br)?$/.test(file) ? LLMS_FULL : /\/search\/[^/]+\.texts\.\d+\.bin$/.test(file) ? TEXT_PART_BYTES : /\/search\/[^/]+\.(vocabulary(\.\d+)?\.json|stems(\.\d+)?\.json|words(\.\d+)?\.bin)$/.test(file) ? OPENING_PIECE_BYTES : /\/(catalog[^/]*|search\/[^/]+)$/.test(file) ? CATALOG_PART_BYTES : BOUND;
    if (size > bound) over.push(`${file}: ${size} bytes (bound ${bound})`);
  }
  assert.deepEqual(over, []);
  // The corpus is large enough that the parts are cut.
  const count = (pattern: RegExp) => [...sizes.keys()].filter((f) => pattern.test(f)).length;
  assert.ok(count(/^bundle\/main\/search\/en\.texts\.\d+\.bin$/) >= 3, 'the English texts in parts');
  assert.ok(count(/^bundle\/main\/catalog\.posts\.\d+\.json$/) >= 2, 'the catalog in parts');
  assert.ok(count(/^site\/client\/llms-full\/\d+\.txt$/) >= 3, 'llms-full.txt names parts');
  // What only a build reads is in the build, and in no host's project (where everything else of the bundle is).
  const buildOnlyFiles = [...sizes.keys()].filter((f) => buildOnly(f.replace(/^bundle\/[^/]+\//, '')) && f.startsWith('bundle/'));
  assert.ok(buildOnlyFiles.some((f) => f.endsWith('/links.json')) && buildOnlyFiles.some((f) => f.endsWith('/en.index.bin')), buildOnlyFiles.join(' '));
  for (const target of TARGETS) {
    const shipped = filesUnder(join(dist, target)).map((f) => f.slice(1));
    const bundle = shipped.filter((f) => /(^|\/)bundle\/main\//.test(f)).map((f) => f.replace(/^.*?bundle\/[^/]+\//, ''));
    assert.ok(bundle.includes('catalog.json') && bundle.includes('search/en.runs.0.bin'), `${target} ships the bundle`);
    assert.deepEqual(bundle.filter(buildOnly), [], `${target} ships no build-only file`);
  }
});
