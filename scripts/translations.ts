// Author command: `npm run translations -- status [--root DIR]` prints each translation's state (a stale one
// Folio wrote with the number of segments the English changed);
// it also counts, per language, the category and tag names content/taxonomies.yaml lacks;
// `npm run translations -- stamp <slug> <lang>...` or `stamp --unstamped` records the English source hash;
// `verify <slug> <lang>...` records a person's review.
import { join } from 'node:path';
import { TRANSLATED_CODES } from '../src/core/languages.ts';
import { MEMORY_FILE, TranslationMemory } from '../src/translate/memory.ts';
import { segmentTexts } from '../src/translate/translate-post.ts';
import { loadGlossary } from '../src/translate/glossary.ts';
import { loadAll, stamp, status, termNameGaps, verify } from '../src/build/translation-status.ts';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? args.splice(rootAt, 2)[1]! : 'content';
const [command, ...rest] = args;
const posts = await loadAll(root);
const MARK = { available: '✓', stale: 'stale', missing: '·', unstamped: 'unstamped' } as const;

if (command === 'status' || command === undefined) {
  const label = 'term names missing';
  const width = Math.max(label.length, ...posts.map((p) => p.slug.length));
  console.log(`${''.padEnd(width)}  ${TRANSLATED_CODES.map((c) => c.padEnd(10)).join('')}`);
  const protect = (await loadGlossary(root))?.protect;
  for (const p of posts) {
    const row = status(p);
    // A stale translation Folio wrote says how many of its segments the English changed (what a new run sends).
    const memory = await TranslationMemory.open(join(p.dir, MEMORY_FILE));
    const sources = p.english.format === 'md' ? segmentTexts({ title: p.english.title, summary: p.english.summary, body: p.english.body }, { protect }) : [];
    const mark = (c: string) => {
      const state = row.states[c]!;
      const changed = state === 'stale' ? memory.staleCount(c, sources) : undefined;
      return changed === undefined ? MARK[state] : `stale ${changed}`;
    };
    console.log(`${p.slug.padEnd(width)}  ${TRANSLATED_CODES.map((c) => mark(c).padEnd(10)).join('')}`);
  }
  // Categories and tags without a name in the language (they read the English one): content/taxonomies.yaml.
  const gaps = await termNameGaps(root, posts);
  console.log(`\n${label.padEnd(width)}  ${TRANSLATED_CODES.map((c) => String(gaps[c] || MARK.available).padEnd(10)).join('')}`);
} else if (command === 'stamp') {
  const targets: [string, string][] = [];
  if (rest[0] === '--unstamped') {
    for (const p of posts) for (const [lang, s] of Object.entries(status(p).states)) if (s === 'unstamped') targets.push([p.slug, lang]);
  } else {
    const [slug, ...langs] = rest;
    if (!slug || langs.length === 0) throw new Error('usage: stamp <slug> <lang>... | stamp --unstamped');
    for (const lang of langs) targets.push([slug, lang]);
  }
  for (const [slug, lang] of targets) {
    const post = posts.find((p) => p.slug === slug);
    if (!post) throw new Error(`no post "${slug}" in ${root}/posts`);
    console.log(`stamped ${await stamp(post, lang)}`);
  }
} else if (command === 'verify') {
  const [slug, ...langs] = rest;
  const post = posts.find((p) => p.slug === slug);
  if (!post || langs.length === 0) {
    console.error(`usage: translations verify <slug> <lang>...${slug && !post ? ` (no post "${slug}" in ${root}/posts)` : ''}`);
    process.exitCode = 2;
  } else for (const lang of langs) console.log(`verified ${await verify(post, lang)}`);
} else {
  console.error('usage: translations status | stamp <slug> <lang>... | stamp --unstamped | verify <slug> <lang>...  [--root DIR]');
  process.exitCode = 2;
}
