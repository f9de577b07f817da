// Author command: `npm run translate -- [slug...] [--lang fr,de] [--missing] [--stale] [--provider NAME]
// [--dry-run] [--max-chars N] [--replace] [--root DIR]`: makes the missing and stale translations with the engine
// content/translation.yaml names for each language, sending only what the memory does not hold.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TRANSLATED_CODES } from '../src/core/languages.ts';
import { loadAll, status } from '../src/build/translation-status.ts';
import { sourceHash } from '../src/build/derive/source-hash.ts';
import { createProvider } from '../src/translate/providers/index.ts';
import { providerLabel, SetupError, type Provider } from '../src/translate/provider.ts';
import { loadTranslationSettings, providerFor } from '../src/translate/settings.ts';
import { MEMORY_FILE, TranslationMemory } from '../src/translate/memory.ts';
import { engineKey, glossaryChanged, loadGlossary } from '../src/translate/glossary.ts';
import { adoptTranslation, recordWritten, translatePost } from '../src/translate/translate-post.ts';
import { translationFile } from '../src/translate/translation-file.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    lang: { type: 'string' },
    missing: { type: 'boolean', default: false },
    stale: { type: 'boolean', default: false },
    provider: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    'max-chars': { type: 'string' },
    replace: { type: 'boolean', default: false },
    root: { type: 'string', default: 'content' },
  },
});

function fail(message: string): never {
  console.error(`translate: ${message}`);
  process.exit(2);
}

const root = values.root!;
const dryRun = values['dry-run']!;
const maxChars = values['max-chars'] === undefined ? Infinity : Number(values['max-chars']);
if (!(maxChars >= 0)) fail('--max-chars takes a number of characters');
const langs = values.lang ? values.lang.split(',').map((l) => l.trim().toLowerCase()) : TRANSLATED_CODES;
for (const l of langs) if (!TRANSLATED_CODES.includes(l)) fail(`"${l}" is not one of the 13 translated languages (${TRANSLATED_CODES.join(', ')})`);
// Neither flag: both (what is missing and what is stale).
const wanted = new Set(values.missing || values.stale ? [...(values.missing ? ['missing'] : []), ...(values.stale ? ['stale'] : [])] : ['missing', 'stale']);

const settings = await loadTranslationSettings(root).catch((e: Error) => fail(e.message));
const glossary = await loadGlossary(root).catch((e: Error) => fail(e.message));
const posts = (await loadAll(root)).filter((p) => positionals.length === 0 || positionals.includes(p.slug));
for (const slug of positionals) if (!posts.some((p) => p.slug === slug)) fail(`no post "${slug}" in ${root}/posts`);

// Every engine is set up before anything is sent: a missing key or an unsupported language is one line.
const providers = new Map<string, Provider>();
const routes = new Map<string, Provider>();
const unrouted: string[] = [];
for (const lang of langs) {
  const name = providerFor(settings, lang, values.provider);
  if (!name) {
    unrouted.push(lang);
    continue;
  }
  let provider = providers.get(name);
  try {
    provider ??= createProvider(name);
  } catch (e) {
    fail((e as Error).message);
  }
  providers.set(name, provider);
  if (!provider.supports(lang)) fail(`${name} does not translate into ${lang}: choose another provider for it in ${root}/translation.yaml or with --provider`);
  routes.set(lang, provider);
}
if (unrouted.length && values.lang) fail(`no provider for ${unrouted.join(', ')}: name one in ${root}/translation.yaml (providers.<lang> or providers.default) or with --provider`);
if (unrouted.length) console.log(`no provider set for ${unrouted.join(', ')} in ${root}/translation.yaml: those languages are left as they are`);

const budget = { chars: maxChars };
const totals = { posts: 0, written: 0, segments: 0, sent: 0, fromMemory: 0, human: 0, chars: 0, failed: 0, skipped: 0 };
const perLanguage = new Map<string, { provider: string; segments: number; chars: number }>();
let stopped: string | undefined;

for (const post of posts) {
  if (stopped) break;
  if (post.english.format !== 'md') {
    console.log(`${post.slug}: its English source is HTML (imported); only Markdown sources are translated`);
    continue;
  }
  const states = status(post).states;
  const english = { title: post.english.title, summary: post.english.summary, body: post.english.body };
  const hash = sourceHash(post.english.title, post.english.body);
  const memory = await TranslationMemory.open(join(post.dir, MEMORY_FILE));
  const asDocument = (t: (typeof post.translations)[number]) => ({ title: t.title, summary: t.summary, body: t.body });
  // Current translations made outside Folio become the memory's (a person's), so later English edits send only what changed.
  let adopted = 0;
  for (const t of post.translations) if (t.format === 'md' && states[t.lang] === 'available' && !memory.hasRecord(t.lang) && adoptTranslation(memory, t.lang, english, asDocument(t), glossary)) adopted++;
  if (adopted && !dryRun) await memory.save();
  for (const [lang, provider] of routes) {
    // A file Folio wrote with another glossary is as stale as one whose English changed.
    const state = states[lang] === 'available' && glossaryChanged(memory.writtenGlossary(lang), glossary) ? 'stale' : states[lang]!;
    if (!wanted.has(state === 'unstamped' ? 'stale' : state)) continue;
    totals.posts++;
    const existing = post.translations.find((t) => t.lang === lang);
    // A scaffold (`npm run new -- --lang`) still holds the English: nobody's work is lost by translating it.
    const scaffold = existing && !existing.source_hash && existing.body.trim() === post.english.body.trim();
    if (existing && !memory.hasRecord(lang) && !values.replace && !scaffold) {
      totals.skipped++;
      console.log(`${post.slug} ${lang}: ${state}, and made outside Folio: which of its words match the new English cannot be told; --replace translates it anew (its text is replaced)`);
      continue;
    }
    const outcome = await translatePost({
      slug: post.slug,
      lang,
      english,
      existing: existing && existing.format === 'md' && memory.hasRecord(lang) ? asDocument(existing) : undefined,
      provider,
      engine: engineKey(providerLabel(provider), glossary),
      glossary,
      memory,
      dryRun,
      budget,
      checkpoint: () => memory.save(),
      retry: { attempts: 5, baseMs: 500, onWait: (ms, why) => console.log(`  ${provider.id}: ${why}; trying again in ${(ms / 1000).toFixed(1)} s`) },
    }).catch((e: Error) => fail(`${post.slug} (${lang}): ${e instanceof SetupError ? '' : `${provider.id} failed: `}${e.message}`));
    const line = `${post.slug} ${lang} (${provider.id}): ${outcome.segments} segments, ${outcome.fromMemory} from memory${outcome.human ? ` (${outcome.human} by a person)` : ''}, ${dryRun ? 'to send' : 'sent'} ${dryRun ? outcome.segments - outcome.fromMemory : outcome.sent} (${outcome.chars} characters)`;
    const row = perLanguage.get(lang) ?? { provider: provider.id, segments: 0, chars: 0 };
    row.segments += outcome.segments - outcome.fromMemory;
    row.chars += outcome.chars;
    perLanguage.set(lang, row);
    totals.segments += outcome.segments;
    totals.fromMemory += outcome.fromMemory;
    totals.human += outcome.human;
    totals.sent += outcome.sent;
    totals.chars += dryRun ? outcome.chars : 0;
    if (outcome.skipped) {
      totals.skipped++;
      console.log(`${line}; skipped: ${outcome.skipped}`);
      continue;
    }
    for (const f of outcome.failed) console.log(`  ${post.slug} ${lang}: ${f.where}: ${f.reason}`);
    totals.failed += outcome.failed.length;
    if (outcome.stop) {
      stopped = `${provider.id}: ${outcome.stop}`;
      console.log(`${line}; stopped: ${outcome.stop}`);
      break;
    }
    if (dryRun) {
      console.log(line);
      continue;
    }
    if (!outcome.result) {
      console.log(`${line}; not written: ${outcome.failed.length} segment${outcome.failed.length === 1 ? '' : 's'} failed (kept in memory: the next run sends only those)`);
      continue;
    }
    const file = existing?.file ?? join(post.dir, `${lang}.md`);
    await writeFile(file, translationFile(outcome.result, { provider: providerLabel(provider), sourceHash: hash, modified: existing?.modified }));
    recordWritten(memory, lang, english, outcome.result, glossary);
    await memory.save();
    totals.written++;
    console.log(`${line}; wrote ${file}`);
  }
}

if (dryRun) {
  console.log('\nwould send (after memory hits):');
  for (const [lang, row] of perLanguage) {
    const price = settings.prices[row.provider];
    const cost = price === undefined ? 'no price set' : `about $${((row.chars / 1e6) * price).toFixed(2)}`;
    console.log(`  ${lang.padEnd(6)} ${row.provider.padEnd(15)} ${String(row.segments).padStart(6)} segments ${String(row.chars).padStart(9)} characters  ${cost}`);
  }
} else {
  console.log(`\n${totals.written} translations written; ${totals.sent} segments sent, ${totals.fromMemory} from memory (${totals.human} by a person), ${totals.failed} failed, ${totals.skipped} skipped`);
}
if (stopped) fail(`stopped: ${stopped}; what was done is kept, run again when the quota allows`);
if (totals.failed) process.exitCode = 1;
