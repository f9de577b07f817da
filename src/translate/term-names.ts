import { readFile } from 'node:fs/promises';
import { writeWhole } from '../fs/write-whole.ts';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { KINDS, loadTermNames, TAXONOMIES_FILE, usedTerms } from '../pipeline/load/taxonomies.ts';
import type { TaxonomyKind, TermNames } from '../core/types.ts';
import { ContentErrors, FileError } from '../pipeline/load/file-error.ts';
import type { PostSource } from '../pipeline/load/posts.ts';
import { slugify } from '../pipeline/load/slugify.ts';
import { escapeText, unescapeText } from './inline-markup.ts';
import { batches, providerLabel, QuotaError, type Provider } from './provider.ts';
import { sendWithRetry, type RetryPolicy } from './send.ts';
import { contentProblem, repeatedAnswers } from './checks.ts';

/**
 * The names an engine's answer was refused for (`content/.translation-term-names.json`):
 * `<lang> <kind> <English name>` -> the engine (`<provider>:<version>`). Not sent to that engine
 * again, so a run with nothing new sends nothing; another engine (or version) tries again.
 */
const REFUSED_FILE = '.translation-term-names.json';
const refusalKey = (lang: string, kind: TaxonomyKind, english: string) => `${lang} ${kind} ${english}`;

/** A name made for a term: its kind, slug and English name, and its name in `lang`. */
interface FoundName {
  kind: TaxonomyKind;
  slug: string;
  english: string;
  lang: string;
  name: string;
}

export interface TermFill {
  /** Names sent (or, in a dry run, to send) and their characters. */
  sent: number;
  chars: number;
  /** Names an engine answered that were refused (unchanged English, junk): left missing. */
  missing: number;
  /** The run must stop (a quota): the names already made are written. */
  stop?: string;
}

/**
 * Fills what content/taxonomies.yaml lacks: the name of each category and tag the posts use, in
 * each language an engine is routed for, by that engine. Names already there, a person's or an
 * engine's, are never sent again: the file is the memory of the names. Slugs do not change (they
 * come from the English name).
 */
export async function fillTermNames(options: {
  root: string;
  /** Every post of the root (what taxonomies.yaml is checked against) and those the run is for. */
  allPosts: readonly PostSource[];
  posts: readonly PostSource[];
  routes: ReadonlyMap<string, Provider>;
  dryRun: boolean;
  budget: { chars: number };
  retryFor?: (provider: Provider) => RetryPolicy;
  log: (line: string) => void;
}): Promise<TermFill> {
  const { root, routes, dryRun, budget, log } = options;
  // The English name as the posts write it, by slug (the first spelling met).
  const termsOf = (posts: readonly PostSource[]) => {
    const english: Record<TaxonomyKind, Map<string, string>> = { categories: new Map(), tags: new Map() };
    for (const post of posts) for (const kind of KINDS) for (const name of post.english[kind]) if (!english[kind].has(slugify(name))) english[kind].set(slugify(name), name);
    return english;
  };
  const all = termsOf(options.allPosts);
  const fill: TermFill = { sent: 0, chars: 0, missing: 0 };
  let names: TermNames;
  try {
    names = await loadTermNames(root, usedTerms((kind) => [...all[kind].keys()]));
  } catch (e) {
    // The file's own mistakes are the build's to report, line by line; the posts' translations go on.
    if (!(e instanceof ContentErrors || e instanceof FileError)) throw e;
    log(`category and tag names: ${join(root, TAXONOMIES_FILE)} has content errors (npm run build lists them): no names filled`);
    return fill;
  }
  const english = termsOf(options.posts);
  const refusedFile = join(root, REFUSED_FILE);
  const refused = JSON.parse(await readFile(refusedFile, 'utf8').catch(() => '{}')) as Record<string, string>;
  const found: FoundName[] = [];
  for (const [lang, provider] of routes) {
    const missing = KINDS.flatMap((kind) => [...english[kind].entries()].filter(([slug]) => !names[kind][slug]?.[lang]).map(([slug, name]) => ({ kind, slug, english: name })));
    // A name this engine refused before (unchanged, junk) is not sent again: it stays missing until a person names it.
    const wanted = missing.filter((w) => refused[refusalKey(lang, w.kind, w.english)] !== providerLabel(provider));
    if (missing.length > wanted.length) log(`category and tag names ${lang}: ${missing.length - wanted.length} left missing (${provider.id} could not name them before): name them in ${join(root, TAXONOMIES_FILE)}`);
    if (wanted.length === 0) continue;
    const texts = wanted.map((w) => escapeText(w.english));
    const chars = texts.reduce((n, t) => n + t.length, 0);
    fill.sent += wanted.length;
    fill.chars += chars;
    log(`category and tag names ${lang} (${provider.id}): ${wanted.length} to ${dryRun ? 'send' : 'send now'} (${chars} characters)`);
    if (dryRun) continue;
    if (chars > budget.chars) {
      log(`  skipped: over what the run may still send (${budget.chars}; --max-chars)`);
      continue;
    }
    budget.chars -= chars;
    try {
      for (const batch of batches(texts, provider.limits)) {
        const sources = batch.map((i) => texts[i]!);
        const out = await sendWithRetry(provider, sources, lang, options.retryFor?.(provider));
        const repeated = repeatedAnswers(sources, out);
        for (const [k, i] of batch.entries()) {
          const name = unescapeText(out[k] ?? '').replace(/<[^>]*>/g, '').trim();
          // A name an engine could not make, left as the English or refused by a check, stays missing (`translations status` counts it).
          const problem = !name ? 'empty' : name.toLocaleLowerCase(lang) === wanted[i]!.english.toLocaleLowerCase('en') ? 'came back unchanged' : (repeated.get(out[k]!) ?? contentProblem(texts[i]!, out[k]!, lang));
          if (problem === undefined) found.push({ ...wanted[i]!, lang, name });
          else {
            fill.missing++;
            refused[refusalKey(lang, wanted[i]!.kind, wanted[i]!.english)] = providerLabel(provider);
            log(`  ${lang}: ${wanted[i]!.kind === 'categories' ? 'category' : 'tag'} "${wanted[i]!.english}" not named: ${problem} (left missing)`);
          }
        }
      }
    } catch (e) {
      if (!(e instanceof QuotaError)) throw e;
      fill.stop = e.message;
      break;
    }
  }
  if (!dryRun && Object.keys(refused).length) await writeWhole(refusedFile, `${JSON.stringify(refused, null, 1)}\n`);
  if (found.length) {
    await writeTermNames(root, found);
    log(`wrote ${found.length} category and tag names into ${join(root, TAXONOMIES_FILE)}`);
  }
  return fill;
}

/** Adds names to taxonomies.yaml, keeping its leading comments and every name already there. */
async function writeTermNames(root: string, found: readonly FoundName[]): Promise<void> {
  const file = join(root, TAXONOMIES_FILE);
  const raw = await readFile(file, 'utf8').catch(() => '');
  const data = ((raw ? yaml.load(raw, { schema: yaml.CORE_SCHEMA }) : undefined) ?? {}) as Record<string, Record<string, Record<string, string>>>;
  for (const { kind, english, name, lang, slug } of found) {
    const section = (data[kind] ??= {});
    // The entry may be keyed by the English name or by the slug.
    const key = Object.keys(section).find((k) => slugify(k) === slug) ?? english;
    (section[key] ??= {})[lang] = name;
  }
  const header = raw.match(/^(#.*\n)*/)?.[0] ?? '';
  await writeWhole(file, `${header}${yaml.dump(data, { lineWidth: -1 })}`);
}
