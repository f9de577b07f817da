import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import matter from 'gray-matter';
import { isApertiumInstalled } from '../../src/translate/providers/apertium.ts';
import { liveManifest } from '../helpers/manifest.ts';

/**
 * translation.yaml's `build: {translate: true, max_chars: N}`: `npm run build` translates what is
 * missing or stale first (here the Spanish of one essay, by Apertium) and publishes it; an engine
 * that cannot run is one line and the build goes on without it.
 */
const skip = isApertiumInstalled() ? false : 'Apertium not found (apt-get install -y apertium apertium-eng-spa apertium-fr-es apertium-es-pt; .ci/run installs it)';

let dir: string;
let content: string;
const SETTINGS = 'providers:\n  es: apertium\nbuild:\n  translate: true\n  max_chars: 20000\n';
const KEPT = ['the-slow-web', 'tidal-energy', 'learning-in-public'];

/** Whether the live build publishes the Spanish page of the essay. */
const publishesSpanish = async () => Object.keys((await liveManifest(join(dir, 'dist', 'current'))).paths).some((p) => /^\/es\/the-slow-web\/?$/.test(p));

function build(env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/build.ts'], { env: { ...process.env, FOLIO_CONTENT: content, FOLIO_OUT: join(dir, 'dist'), FOLIO_CACHE: join(dir, 'cache'), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-build-translate-'));
  content = join(dir, 'content');
  await cp('content', content, { recursive: true });
  // Three essays whose Spanish is there, then the Spanish of one of them removed: the one thing to translate.
  for (const slug of await readdir(join(content, 'posts'))) if (!KEPT.includes(slug)) await rm(join(content, 'posts', slug), { recursive: true });
  await rm(join(content, 'posts', 'the-slow-web', 'es.md'));
  // Its category and tag names are those of every demo essay: fewer essays would not use them all.
  await rm(join(content, 'taxonomies.yaml'));
  // The demo's menu names categories of essays left out here: its pages alone stay (menu_names names them).
  const site = join(content, 'site.yaml');
  await writeFile(site, (await readFile(site, 'utf8')).replace(/^menu:.*$/m, 'menu: [about, colophon]'));
});
after(() => rm(dir, { recursive: true, force: true }));

test('an invalid build setting fails the build before anything is built, one line per problem', { skip }, async () => {
  await writeFile(join(content, 'translation.yaml'), 'providers:\n  es: apertium\nbuild:\n  translate: yes please\n  cap: 3\n');
  const r = await build();
  assert.equal(r.code, 1, r.output);
  assert.match(r.output, /translation\.yaml: build\.cap: not a known setting \(translate, max_chars\)/);
  assert.match(r.output, /translation\.yaml: build\.translate: must be true or false/);
  assert.ok(!existsSync(join(dir, 'dist', 'current')), 'nothing was built');
});

test('an engine that cannot run is one line; the build goes on and publishes what there is', { skip }, async () => {
  await writeFile(join(content, 'translation.yaml'), SETTINGS);
  const r = await build({ APERTIUM_BIN: join(dir, 'no-such-apertium') });
  assert.equal(r.code, 0, r.output);
  const lines = r.output.split('\n').filter((l) => l.startsWith('translate: ') && !l.includes('no provider set for'));
  assert.equal(lines.length, 1, r.output);
  assert.match(lines[0]!, /^translate: the-slow-web \(es\): apertium could not be started .*; the build goes on with the translations there are$/);
  assert.ok(!existsSync(join(content, 'posts', 'the-slow-web', 'es.md')));
  assert.equal(await publishesSpanish(), false);
});

test('with build.translate on, a missing Spanish translation is made by Apertium before the build and published', { skip }, async () => {
  const r = await build();
  assert.equal(r.code, 0, r.output);
  assert.match(r.output, /^translate: the-slow-web es \(apertium\): \d+ segments, 0 from memory, sent \d+ \(\d+ characters\); wrote /m, r.output);
  // The standalone pages' Spanish too (about, colophon): the build's run covers every post and page.
  assert.match(r.output, /^translate: about es \(apertium\): .*; wrote /m, r.output);
  assert.match(r.output, /^translate: 3 translations written; /m);
  const es = matter(await readFile(join(content, 'posts', 'the-slow-web', 'es.md'), 'utf8'));
  assert.match(String(es.data.provider), /^apertium:/);
  assert.equal(await publishesSpanish(), true, 'the new translation is published by the same build');
  // Nothing left to translate: the next build sends nothing and finds no change.
  const again = await build();
  assert.equal(again.code, 0, again.output);
  assert.match(again.output, /^translate: 0 translations written; 0 segments sent/m);
  assert.match(again.output, /no change since build/);
});
