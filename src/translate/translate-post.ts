import { contentProblem, glossaryProblem, repeatedAnswers } from './checks.ts';
import { engineKey, segmentEngineKey, termPattern, writtenRecord, type Glossary } from './glossary.ts';
import { PERSON, REVIEW, type TranslationMemory } from './memory.ts';
import { QuotaError, batches, providerLabel, type Provider, type SegmentContext } from './provider.ts';
import { INFLECTING, termPlaceholders } from './fixed-terms.ts';
import { alignSentences, joinSentences, sentenceProblem, sentencesOf, type Sentence } from './sentences.ts';
import { segmentDocument, type DocumentText, type SegmentedDocument, type SegmentOptions } from './segments.ts';
import { sendWithRetry, type RetryPolicy } from './send.ts';

/** One post into one language: what the command asks. */
export interface PostTranslation {
  slug: string;
  lang: string;
  /** The English, segmented with the glossary's kept terms (englishSegments): once per post, for every language. */
  english: SegmentedDocument;
  /** The translation file as it is now, if there is one, and whether Folio wrote it (the memory has a record). */
  existing?: DocumentText;
  provider: Provider;
  /** The memory key of this engine: `<provider>:<version>` and the glossary's digest (glossary.ts engineKey). */
  engine: string;
  glossary?: Glossary;
  memory: TranslationMemory;
  dryRun: boolean;
  /** Characters this run may still send (shared by every post of the run). */
  budget: { chars: number };
  retry?: RetryPolicy;
  /** Send the English under a person's text awaiting review (its English changed) to the engine, replacing that text. */
  retranslateReviewed?: boolean;
  /** Saves the memory (after each batch, so a killed run resumes without sending again). */
  checkpoint: () => Promise<void>;
}

export interface Failure {
  where: string;
  reason: string;
}

export interface Outcome {
  /** The translation to write (every segment passed), or undefined. */
  result?: DocumentText;
  segments: number;
  fromMemory: number;
  human: number;
  /** What was (or, in a dry run, would be) sent: whole segments, or the sentences of a segment the memory holds the rest of. */
  toSend: number;
  sent: number;
  chars: number;
  /** Who wrote each segment of the result: the engine (`<provider>:<version>`), `person`, or `review`. */
  authors: string[];
  /** Where a person's text is kept although its English changed since (segments to review). */
  review: string[];
  /** What is sent that the memory holds a similar segment of (at least FUZZY_MINIMUM alike): offered to a language model as an example. */
  fuzzy: { where: string; similarity: number; source: string }[];
  failed: Failure[];
  /** Why nothing was attempted (a file rearranged by hand, the character cap), if so. */
  skipped?: string;
  /** The run must stop here (a quota): what was done is kept. */
  stop?: string;
}

/** How alike a segment in the memory must be to be offered as a fuzzy match (see similarity.ts). */
export const FUZZY_MINIMUM = 0.85;

/** What is sent: a whole segment (i), or sentence k of it, with what the engine may be told beside it. */
interface Unit {
  i: number;
  k?: number;
  text: string;
  context?: SegmentContext;
}

/**
 * Segments the English, takes what the memory holds (a person's corrections first), sends the
 * rest in batches within the provider's limits, checks every segment that comes back (markup,
 * engine marks, length, English left as it was) and sends a failed one once more alone. A segment
 * that fails again keeps no translation and the post is not written: it stays as it was, and the
 * outcome names the segment and why. A segment the memory does not hold whole but holds some
 * sentences of (an English edit of one sentence) is sent sentence by sentence: only those it
 * lacks, each with its paragraph as context; a segment none of whose sentences the memory holds
 * goes whole, so the engine reads the paragraph, and its translation is kept per sentence too
 * where it cuts into the same sentences (sentences.ts).
 */
export async function translatePost(job: PostTranslation): Promise<Outcome> {
  const doc = job.english;
  const sources = doc.segments.map((s) => s.text);
  const outcome: Outcome = { segments: sources.length, fromMemory: 0, human: 0, toSend: 0, sent: 0, chars: 0, authors: [], review: [], fuzzy: [], failed: [] };
  const label = providerLabel(job.provider);
  /** The memory keys of a segment or sentence: its own (the glossary entries it holds), then the whole glossary's (older memories). */
  const keysOf = (text: string) => [...new Set([segmentEngineKey(label, job.glossary, job.lang, text), job.engine])];
  if (job.existing) {
    // Read as it was written: with the kept terms of the glossary it was made with.
    const current = segmentTexts(job.existing, { protect: termPattern(job.memory.writtenGlossary(job.lang)?.keep ?? []) });
    if (job.memory.recordHumanEdits(job.lang, current) === undefined) {
      outcome.skipped = 'its file no longer lines up with what Folio wrote (blocks added or removed by hand): edit it to match the English, or delete it to translate anew';
      return outcome;
    }
  }
  // A person's text whose English changed is kept, flagged for review, never replaced in silence.
  job.memory.carryOver(job.lang, sources);
  /** A person's correction that no longer fits the English's markup (a placeholder or a kept term removed): theirs to fix, never sent. */
  const unfit = new Set<number>();
  const texts: (string | undefined)[] = sources.map((source, i) => {
    const hit = job.memory.lookup(source, job.lang, keysOf(source));
    if (!hit || (hit.review && job.retranslateReviewed)) return undefined;
    outcome.fromMemory++;
    outcome.authors[i] = hit.review ? REVIEW : hit.human ? PERSON : label;
    if (!hit.human) return hit.text;
    outcome.human++;
    const problem = doc.problem(i, hit.text);
    if (problem === undefined) {
      // Named by the English's place (the line in en.md): the reviewer reads the new English there.
      if (hit.review) outcome.review.push(reviewPlace(doc.segments[i]!.where));
      return hit.text;
    }
    unfit.add(i);
    outcome.failed.push({ where: doc.segments[i]!.where, reason: `a person's correction no longer fits the English (${problem}): correct it in the file` });
    return undefined;
  });

  const problemOf = (i: number, t: string) =>
    doc.problem(i, t) ?? contentProblem(sources[i]!, t, job.lang) ?? (job.glossary ? glossaryProblem(job.glossary.terms, sources[i]!, t, job.lang) : undefined);
  const accept = (i: number, t: string, aligned: boolean) => {
    texts[i] = t;
    outcome.authors[i] = label;
    job.memory.dropReview(sources[i]!, job.lang);
    job.memory.putMachine(sources[i]!, job.lang, keysOf(sources[i]!)[0]!, t);
    if (aligned) rememberSentences(job.memory, sources[i]!, t, job.lang, keysOf);
  };

  /** Segments the memory holds some sentences of: their sentences and the translations known so far. */
  const partial = new Map<number, { sentences: Sentence[]; texts: (string | undefined)[] }>();
  const units: Unit[] = [];
  for (const i of sources.keys()) {
    if (texts[i] !== undefined || unfit.has(i)) continue;
    const sentences = sentencesOf(sources[i]!);
    const known = sentences.length > 1 ? sentences.map((s) => job.memory.machine(s.text, job.lang, keysOf(s.text))) : [];
    if (!known.some((t) => t !== undefined)) {
      units.push({ i, text: sources[i]! });
      continue;
    }
    partial.set(i, { sentences, texts: known });
    for (const [k, s] of sentences.entries()) if (known[k] === undefined) units.push({ i, k, text: s.text, context: { paragraph: sources[i]! } });
  }
  const where = (u: Unit) => `${doc.segments[u.i]!.where}${u.k === undefined ? '' : `, sentence ${u.k + 1}`}`;
  /** A segment whose sentences are all known: joined, and checked whole (its markup) before it is kept. */
  const assemble = (i: number) => {
    const entry = partial.get(i)!;
    if (entry.texts.some((t) => t === undefined)) return;
    const t = joinSentences(entry.sentences, entry.texts as string[], job.lang);
    const problem = doc.problem(i, t);
    if (problem === undefined) accept(i, t, false);
    else outcome.failed.push({ where: doc.segments[i]!.where, reason: problem });
  };
  // Every sentence known (a paragraph whose sentences were reordered, or each met elsewhere): nothing to send.
  for (const [i, entry] of partial) {
    if (entry.texts.some((t) => t === undefined)) continue;
    outcome.fromMemory++;
    assemble(i);
  }
  // What the memory holds like what is sent: listed by a dry run, and offered to an engine that reads examples (a language model).
  for (const u of units) {
    const match = job.memory.similar(u.text, job.lang, FUZZY_MINIMUM);
    if (!match) continue;
    outcome.fuzzy.push({ where: where(u), similarity: match.similarity, source: match.source });
    if (job.provider.readsExamples) u.context = { ...u.context, similar: match };
  }
  outcome.toSend = units.length;
  outcome.chars = units.reduce((n, u) => n + u.text.length, 0);
  if (job.dryRun) return outcome;
  if (outcome.chars > job.budget.chars) {
    outcome.skipped = `${outcome.chars} characters to send, over what the run may still send (${job.budget.chars}; --max-chars)`;
    return outcome;
  }
  job.budget.chars -= outcome.chars;

  const check = (u: Unit, t: string) => {
    if (u.k === undefined) return problemOf(u.i, t);
    const sentence = partial.get(u.i)!.sentences[u.k]!;
    return sentenceProblem(sentence, t) ?? contentProblem(u.text, t, job.lang) ?? (job.glossary ? glossaryProblem(job.glossary.terms, u.text, t, job.lang) : undefined);
  };
  const take = (u: Unit, t: string) => {
    if (u.k === undefined) return accept(u.i, t, true);
    partial.get(u.i)!.texts[u.k] = t;
    job.memory.putMachine(u.text, job.lang, keysOf(u.text)[0]!, t);
    assemble(u.i);
  };
  // An engine with no way of its own to take fixed translations gets them as placeholders, unless the language inflects nouns (fixed-terms.ts).
  const placeholders = job.glossary && !job.provider.takesFixedTerms && !INFLECTING[job.lang] ? job.glossary : undefined;
  const send = async (list: Unit[], note?: string) => {
    outcome.sent += list.length;
    const texts = list.map((u) => u.text);
    if (!placeholders) return sendWithRetry(job.provider, texts, job.lang, job.retry, note, list.map((u) => u.context));
    const terms = termPlaceholders(texts, placeholders, job.lang);
    return terms.restore(await sendWithRetry(job.provider, terms.texts, job.lang, job.retry, note, list.map((u) => u.context)));
  };
  try {
    const retry: { u: Unit; problem: string; canned?: string }[] = [];
    for (const batch of batches(units.map((u) => u.text), job.provider.limits).map((b) => b.map((k) => units[k]!))) {
      const out = await send(batch);
      // One answer for many different segments is an engine's canned reply, not their translations.
      const repeated = repeatedAnswers(batch.map((u) => u.text), out);
      for (const [k, u] of batch.entries()) {
        const canned = repeated.get(out[k]!);
        const problem = canned ?? check(u, out[k]!);
        if (problem === undefined) take(u, out[k]!);
        else retry.push({ u, problem, ...(canned ? { canned: out[k]! } : {}) });
      }
      await job.checkpoint();
    }
    for (const { u, problem: before, canned } of retry) {
      const [again] = await send([u], `its translation of this segment failed a check (${before})`);
      // Alone, the same canned answer again is still refused.
      const problem = again === canned ? before : check(u, again!);
      if (problem === undefined) take(u, again!);
      else outcome.failed.push({ where: where(u), reason: problem });
    }
    await job.checkpoint();
  } catch (e) {
    await job.checkpoint();
    if (e instanceof QuotaError) {
      outcome.stop = e.message;
      return outcome;
    }
    throw e;
  }
  if (outcome.failed.length === 0) outcome.result = doc.rebuild(texts);
  return outcome;
}

/** How `needs_review` names a segment: by the English's place (`paragraph at line 37 of en.md`), where the reviewer reads the new English. */
export const reviewPlace = (where: string) => `${where} of en.md`;

/** Keeps a segment's translation per sentence too, where it cuts into the same sentences as its English (sentences.ts alignSentences). */
function rememberSentences(memory: TranslationMemory, source: string, translation: string, lang: string, keysOf: (text: string) => string[]): number {
  const sentences = sentencesOf(source);
  const aligned = alignSentences(sentences, translation, lang);
  let added = 0;
  for (const [k, t] of (aligned ?? []).entries()) {
    const s = sentences[k]!.text;
    if (memory.machine(s, lang, keysOf(s)) === t) continue;
    memory.putMachine(s, lang, keysOf(s)[0]!, t);
    added++;
  }
  return added;
}

/**
 * A memory made before sentences were kept (one entry per paragraph) brought up to them: each
 * English segment of several sentences whose translation by this engine the memory holds is kept
 * per sentence as well, where it cuts into the same sentences; every segment's English is kept for
 * fuzzy matches. Run on every post the command reads, sent or not, so a later edit of one sentence
 * sends that sentence; once per language and engine (what it puts later it keeps per sentence as
 * it goes). Returns how many changes were made (the memory is then saved by the caller).
 */
export function upgradeMemory(memory: TranslationMemory, english: SegmentedDocument, lang: string, label: string, glossary: Glossary | undefined): number {
  if (memory.upgraded(lang, label)) return 0;
  memory.markUpgraded(lang, label);
  // Nothing written into the language yet: nothing to bring up; marked all the same (saved with what this run writes), and no memory file made for it alone.
  if (!memory.hasRecord(lang)) return 0;
  const keysOf = (text: string) => [...new Set([segmentEngineKey(label, glossary, lang, text), engineKey(label, glossary)])];
  let added = 1;
  for (const { text } of english.segments) {
    const hit = memory.lookup(text, lang, keysOf(text));
    if (!hit || hit.human) continue;
    if (!memory.knows(text)) {
      memory.remember(text);
      added++;
    }
    added += rememberSentences(memory, text, hit.text, lang, keysOf);
  }
  return added;
}

/** A document's segments as sent: with the glossary's protected terms as placeholders, as the memory keys them. */
export const segmentTexts = (doc: DocumentText, options?: SegmentOptions) => segmentDocument(doc, options).segments.map((s) => s.text);

/** The English of a post segmented as translatePost takes it: with the glossary's kept terms as placeholders. */
export const englishSegments = (english: DocumentText, glossary: Glossary | undefined) => segmentDocument(english, { protect: glossary?.protect });

/**
 * Journals what a translation file is about to be written from (the English segmented by
 * englishSegments), read back from the file's own text, with each segment's author; the caller
 * saves the memory, writes the file, then commits the journal (TranslationMemory.journal).
 */
export function journalWrite(memory: TranslationMemory, lang: string, fileText: string, english: SegmentedDocument, written: DocumentText, authors: readonly string[], glossary: Glossary | undefined): void {
  const sources = english.segments.map((s) => s.text);
  const texts = segmentTexts(written, { protect: glossary?.protect });
  if (texts.length === sources.length) memory.journal(lang, fileText, sources, texts, authors, writtenRecord(glossary, lang));
}

/**
 * Takes a current translation made outside Folio into the memory as a person's (see
 * TranslationMemory.adopt). A summary or cover alt text it lacks is left out of the English too,
 * so the rest still lines up; `translate` then sends only that one.
 */
export function adoptTranslation(memory: TranslationMemory, lang: string, english: DocumentText, translation: DocumentText, glossary: Glossary | undefined): boolean {
  const options = { protect: glossary?.protect };
  return memory.adopt(lang, segmentTexts(pairedEnglish(english, translation), options), segmentTexts(translation, options), writtenRecord(glossary, lang));
}

/** The English without the summary or cover alt text a translation lacks, so the rest of the two line up segment by segment. */
export const pairedEnglish = (english: DocumentText, translation: DocumentText): DocumentText => ({
  ...english,
  summary: translation.summary === undefined ? undefined : english.summary,
  featuredImageAlt: translation.featuredImageAlt === undefined ? undefined : english.featuredImageAlt,
});
