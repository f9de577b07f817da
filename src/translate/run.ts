import { writeWhole } from '../fs/write-whole.ts';
import { join } from 'node:path';
import { TRANSLATED_CODES } from '../core/languages.ts';
import { englishText, loadAll, loadPages, status, translateState } from './translation-status.ts';
import { sourceHash } from '../pipeline/derive/source-hash.ts';
import { createProvider } from './providers/index.ts';
import { providerLabel, SetupError, type Provider } from './provider.ts';
import { loadTranslationSettings, providerFor, type TranslationSettings } from './settings.ts';
import { MEMORY_FILE, TranslationMemory } from './memory.ts';
import { engineKey, loadGlossary } from './glossary.ts';
import { adoptTranslation, englishSegments, journalWrite, translatePost, upgradeMemory } from './translate-post.ts';
import { killPoint } from './kill-point.ts';
import { removeLeftoverTemps } from '../fs/leftover-temps.ts';
import { documentText } from './segments.ts';
import { translationFile } from './translation-file.ts';
import { fillTermNames } from './term-names.ts';
import type { RetryPolicy } from './send.ts';
import { Pace } from './pace.ts';

/** What `npm run translate` is asked (scripts/translate.ts), or what the build asks (settings' build). */
export interface RunOptions {
  /** The content folder: its posts, translation.yaml and glossary.yaml. */
  root: string;
  /** Posts and standalone pages (content/pages/) by slug; none: every post and page. */
  slugs: string[];
  /** Languages asked for by name (a language no engine serves is then an error); undefined: all 13. */
  langs?: string[];
  missing: boolean;
  stale: boolean;
  provider?: string;
  dryRun: boolean;
  maxChars: number;
  replace: boolean;
  /** Send the English under a person's text awaiting review to the engine (its text is replaced). */
  retranslateReviewed?: boolean;
  /** Each line of progress, as the command prints it. */
  log: (line: string) => void;
}

/** Why the run could not start or go on (bad input, an engine that cannot be used or failed): one line. */
export class RunError extends Error {}

export interface RunSummary {
  written: number;
  sent: number;
  failed: number;
  /** Why the run stopped early (a quota), keeping what it had done. */
  stopped?: string;
}

function fail(message: string): never {
  throw new RunError(message);
}

/**
 * Makes the missing and stale translations of the asked posts and pages with the engine translation.yaml
 * names for each language, sending only what the memory does not hold, and writes each that
 * passed every check. Files written before a RunError are kept.
 */
export async function runTranslation(options: RunOptions): Promise<RunSummary> {
  const { root, dryRun, maxChars, log, slugs } = options;
  const langs = options.langs ?? TRANSLATED_CODES;
  for (const l of langs) if (!TRANSLATED_CODES.includes(l)) fail(`"${l}" is not one of the 13 translated languages (${TRANSLATED_CODES.join(', ')})`);
  // Neither flag: both (what is missing and what is stale).
  const wanted = new Set(options.missing || options.stale ? [...(options.missing ? ['missing'] : []), ...(options.stale ? ['stale'] : [])] : ['missing', 'stale']);

  const settings = await loadTranslationSettings(root).catch((e: Error) => fail(e.message));
  const glossary = await loadGlossary(root).catch((e: Error) => fail(e.message));
  const allPosts = await loadAll(root);
  const named = <T extends { slug: string }>(all: T[]) => all.filter((p) => slugs.length === 0 || slugs.includes(p.slug));
  const posts = named(allPosts);
  // Standalone pages (about, colophon) are translated like posts: they have no categories or tags.
  const folders = [...posts, ...named(await loadPages(root))];
  for (const slug of slugs) if (!folders.some((p) => p.slug === slug)) fail(`no post or page "${slug}" in ${root}/posts or ${root}/pages`);

  // Every engine is set up before anything is sent: a missing key or an unsupported language is one line.
  const providers = new Map<string, Provider>();
  const routes = new Map<string, Provider>();
  const unrouted: string[] = [];
  for (const lang of langs) {
    const name = providerFor(settings, lang, options.provider);
    if (!name) {
      unrouted.push(lang);
      continue;
    }
    let provider = providers.get(name);
    if (!provider) {
      try {
        provider = createProvider(name, process.env, { model: settings.models[name], glossary, timeoutMs: settings.limits.requestTimeoutMs });
        await provider.prepare?.();
      } catch (e) {
        fail((e as Error).message);
      }
      providers.set(name, provider);
    }
    if (!provider.supports(lang)) fail(`${name} does not translate into ${lang}: choose another provider for it in ${root}/translation.yaml or with --provider`);
    routes.set(lang, provider);
  }
  if (unrouted.length && options.langs) fail(`no provider for ${unrouted.join(', ')}: name one in ${root}/translation.yaml (providers.<lang> or providers.default) or with --provider`);
  if (unrouted.length) log(`no provider set for ${unrouted.join(', ')} in ${root}/translation.yaml: those languages are left as they are`);

  // One pace per provider, shared by every post and language it serves in this run.
  const paces = new Map<Provider, Pace>();
  const paceOf = (provider: Provider) => paces.get(provider) ?? paces.set(provider, new Pace(settings.rates[provider.id])).get(provider)!;
  const started = performance.now();
  // One retry budget for the whole run: a hung or failing engine holds it for at most that long.
  const retryBudget = { leftMs: settings.limits.retryBudgetMs };
  const retryFor = (provider: Provider): RetryPolicy => ({ attempts: 5, baseMs: 500, pace: paceOf(provider), budget: retryBudget, maxRetryAfterMs: settings.limits.maxRetryAfterMs, onWait: (ms, why, kind) => log(`  ${provider.id}: ${why}; ${kind === 'retry' ? 'trying again in' : 'waiting'} ${(ms / 1000).toFixed(1)} s`) });
  const budget = { chars: maxChars };
  const totals = { posts: 0, written: 0, segments: 0, sent: 0, fromMemory: 0, human: 0, review: 0, chars: 0, failed: 0, skipped: 0 };
  const perLanguage = new Map<string, { provider: string; segments: number; chars: number }>();
  let stopped: string | undefined;

  for (const post of folders) {
    if (stopped) break;
    if (post.english.format !== 'md') {
      log(`${post.slug}: its English source is HTML (imported); only Markdown sources are translated`);
      continue;
    }
    const states = status(post).states;
    const english = documentText(post.english, post.english.body);
    // Parsed once for every language: the English's segments, with the glossary's kept terms.
    const source = englishSegments(english, glossary);
    const sources = source.segments.map((s) => s.text);
    const hash = sourceHash(post.english.title, post.english.body);
    for (const name of dryRun ? [] : await removeLeftoverTemps(post.dir)) log(`${post.slug}: removed ${name}, left by a run that was killed while writing`);
    const memory = await TranslationMemory.open(join(post.dir, MEMORY_FILE));
    // A run killed between its writes left a journal: the file's checksum says whether it was written, before anything reads the file against the memory.
    let settled = false;
    for (const lang of memory.pendingLanguages()) settled = memory.settle(lang, post.translations.find((t) => t.lang === lang)?.raw) || settled;
    if (settled && !dryRun) await memory.save();
    // Current translations made outside Folio become the memory's (a person's), so later English edits send only what changed.
    let adopted = 0;
    for (const t of post.translations) if (t.format === 'md' && states[t.lang] === 'available' && !memory.hasRecord(t.lang) && adoptTranslation(memory, t.lang, english, documentText(t, t.body), glossary)) adopted++;
    if (adopted && !dryRun) await memory.save();
    // A memory kept per paragraph (before sentences were) gains its sentences, so a later one-sentence edit sends one sentence.
    let upgraded = 0;
    for (const [lang, provider] of routes) upgraded += upgradeMemory(memory, source, lang, providerLabel(provider), glossary);
    if (upgraded && !dryRun) await memory.save();
    const words = englishText(post);
    for (const [lang, provider] of routes) {
      // A file Folio wrote with another glossary is as stale as one whose English changed, where the edit touches its English.
      const seen = translateState(states[lang]!, memory, lang, sources, glossary, words);
      const existing = post.translations.find((t) => t.lang === lang);
      // Written with another glossary, or holding a person's text to review (reviewed since: its flag goes): stale.
      const state = seen === 'glossary' || (seen === 'available' && existing?.needs_review.length) ? 'stale' : seen;
      if (!wanted.has(state === 'unstamped' ? 'stale' : state)) continue;
      totals.posts++;
      // A scaffold (`npm run new -- --lang`) still holds the English: nobody's work is lost by translating it.
      const scaffold = existing && !existing.source_hash && existing.body.trim() === post.english.body.trim();
      if (existing && !memory.hasRecord(lang) && !options.replace && !scaffold) {
        totals.skipped++;
        log(`${post.slug} ${lang}: ${state}, and made outside Folio: which of its words match the new English cannot be told; --replace translates it anew (its text is replaced)`);
        continue;
      }
      const outcome = await translatePost({
        slug: post.slug,
        lang,
        english: source,
        existing: existing && existing.format === 'md' && memory.hasRecord(lang) ? documentText(existing, existing.body) : undefined,
        provider,
        engine: engineKey(providerLabel(provider), glossary),
        glossary,
        memory,
        dryRun,
        budget,
        checkpoint: async () => {
          await memory.save();
          killPoint('checkpoint');
        },
        retry: retryFor(provider),
        retranslateReviewed: options.retranslateReviewed,
      }).catch((e: Error) => fail(`${post.slug} (${lang}): ${e instanceof SetupError ? '' : `${provider.id} failed: `}${e.message}`));
      const line = `${post.slug} ${lang} (${provider.id}): ${outcome.segments} segments, ${outcome.fromMemory} from memory${outcome.human ? ` (${outcome.human} by a person${outcome.review.length ? `, ${outcome.review.length} to review` : ''})` : ''}, ${dryRun ? 'to send' : 'sent'} ${dryRun ? outcome.toSend : outcome.sent} (${outcome.chars} characters)`;
      const row = perLanguage.get(lang) ?? { provider: provider.id, segments: 0, chars: 0 };
      row.segments += outcome.toSend;
      row.chars += outcome.chars;
      perLanguage.set(lang, row);
      totals.segments += outcome.segments;
      totals.fromMemory += outcome.fromMemory;
      totals.human += outcome.human;
      totals.sent += outcome.sent;
      totals.chars += dryRun ? outcome.chars : 0;
      if (outcome.skipped) {
        totals.skipped++;
        log(`${line}; skipped: ${outcome.skipped}`);
        continue;
      }
      for (const f of outcome.failed) log(`  ${post.slug} ${lang}: ${f.where}: ${f.reason}`);
      totals.failed += outcome.failed.length;
      if (outcome.stop) {
        stopped = `${provider.id}: ${outcome.stop}`;
        log(`${line}; stopped: ${outcome.stop}`);
        break;
      }
      if (dryRun) {
        log(line);
        // The memory's fuzzy matches: what a language model is shown as an example beside the new English.
        for (const f of outcome.fuzzy) log(`  ${post.slug} ${lang}: ${f.where}: fuzzy match ${Math.floor(f.similarity * 100)} % ("${f.source.length > 60 ? `${f.source.slice(0, 60)}…` : f.source}")`);
        continue;
      }
      if (!outcome.result) {
        log(`${line}; not written: ${outcome.failed.length} segment${outcome.failed.length === 1 ? '' : 's'} failed (kept in memory: the next run sends only those)`);
        continue;
      }
      const file = existing?.file ?? join(post.dir, `${lang}.md`);
      const text = translationFile(outcome.result, { provider: providerLabel(provider), sourceHash: hash, modified: existing?.modified, needsReview: outcome.review });
      // The journal (what the file is written from, and its checksum), then the file, then the memory
      // records it: a run killed anywhere between leaves a journal the next run settles by the file's
      // checksum, so an engine's or an outdated text is never read back as a person's edit.
      journalWrite(memory, lang, text, source, outcome.result, outcome.authors, glossary);
      await memory.save();
      killPoint('journal');
      await writeWhole(file, text);
      killPoint('file');
      memory.commit(lang);
      await memory.save();
      killPoint('memory');
      totals.written++;
      totals.review += outcome.review.length;
      log(`${line}; wrote ${file}`);
      for (const where of outcome.review) log(`  ${post.slug} ${lang}: ${where}: needs review (a person's translation of an earlier English, kept; --retranslate-reviewed sends it to the engine)`);
    }
  }

  // The category and tag names the pages, feeds and API show in each language, where content/taxonomies.yaml lacks them.
  if (!stopped) {
    const terms = await fillTermNames({ root, allPosts, posts, routes, dryRun, budget, log, retryFor }).catch((e: Error) => fail(`category and tag names: ${e.message}`));
    totals.sent += dryRun ? 0 : terms.sent;
    if (terms.stop) stopped = terms.stop;
  }

  if (dryRun) {
    log('\nwould send (after memory hits):');
    for (const [lang, row] of perLanguage) {
      const price = estimate(settings, row.provider, row.chars);
      const cost = price === undefined ? 'no price set' : `about $${price.toFixed(2)}`;
      log(`  ${lang.padEnd(6)} ${row.provider.padEnd(15)} ${String(row.segments).padStart(6)} segments ${String(row.chars).padStart(9)} characters  ${cost}`);
    }
  } else {
    log(`\n${totals.written} translations written; ${totals.sent} segments sent, ${totals.fromMemory} from memory (${totals.human} by a person), ${totals.review} to review, ${totals.failed} failed, ${totals.skipped} skipped`);
    const minutes = (performance.now() - started) / 60_000;
    for (const [provider, pace] of paces) {
      if (pace.requests) log(`${provider.id}: ${pace.requests} requests, ${pace.characters} characters (${Math.round(pace.requests / minutes)} requests and ${Math.round(pace.characters / minutes)} characters a minute; ${(pace.waitedMs / 1000).toFixed(1)} s waited to keep to its rate)`);
    }
    for (const [provider, pace] of paces) if (pace.requests) log(costLine(settings, provider, pace.characters));
  }
  return { written: totals.written, sent: totals.sent, failed: totals.failed, stopped };
}

/** A provider's estimated price for characters (and tokens, for a language model): undefined without a price. */
function estimate(settings: TranslationSettings, provider: string, chars: number, usage?: Provider['usage']): number | undefined {
  const tokens = settings.tokenPrices[provider];
  // Before a run (--dry-run) a model's tokens are estimated: about 4 characters a token, as many out as in.
  if (tokens) return ((usage?.inputTokens ?? chars / 4) * tokens.input + (usage?.outputTokens ?? chars / 4) * tokens.output) / 1e6;
  const price = settings.prices[provider];
  return price === undefined ? undefined : (chars / 1e6) * price;
}

/** The run's cost report for one provider: characters sent (and tokens billed), and the estimated price at translation.yaml's (or the documented default) rates. */
function costLine(settings: TranslationSettings, provider: Provider, chars: number): string {
  const price = estimate(settings, provider.id, chars, provider.usage);
  const tokens = provider.usage ? `, ${provider.usage.inputTokens} input and ${provider.usage.outputTokens} output tokens` : '';
  return `cost ${provider.id}: ${chars} characters${tokens}, ${price === undefined ? 'no price set (prices: in translation.yaml)' : `about $${price.toFixed(price < 0.01 && price > 0 ? 4 : 2)}`}`;
}

/**
 * The build's own run (translation.yaml `build: {translate: true, max_chars: N}`): what
 * `npm run translate -- --missing --stale --max-chars N` does, before the build reads the content.
 * Only an invalid setting fails the build: an engine that cannot be used, fails or hits its quota
 * is one line and the build goes on with the translations there are (what was written before
 * stays; a stale translation stays stale and is published as stale, as without the setting).
 */
export async function translateForBuild(root: string, log: (line: string) => void): Promise<void> {
  const settings = await loadTranslationSettings(root);
  if (!settings.build.translate) return;
  const goOn = 'the build goes on with the translations there are';
  try {
    const summary = await runTranslation({ root, slugs: [], missing: true, stale: true, dryRun: false, maxChars: settings.build.maxChars, replace: false, log });
    if (summary.stopped) log(`stopped: ${summary.stopped}; ${goOn}`);
  } catch (e) {
    if (!(e instanceof RunError)) throw e;
    log(`${e.message}; ${goOn}`);
  }
}
