import { contentProblem, glossaryProblem, repeatedAnswers } from './checks.ts';
import { termPattern, writtenRecord, type Glossary } from './glossary.ts';
import { PERSON, REVIEW, type TranslationMemory } from './memory.ts';
import { QuotaError, batches, providerLabel, type Provider } from './provider.ts';
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
  sent: number;
  chars: number;
  /** Who wrote each segment of the result: the engine (`<provider>:<version>`), `person`, or `review`. */
  authors: string[];
  /** Where a person's text is kept although its English changed since (segments to review). */
  review: string[];
  failed: Failure[];
  /** Why nothing was attempted (a file rearranged by hand, the character cap), if so. */
  skipped?: string;
  /** The run must stop here (a quota): what was done is kept. */
  stop?: string;
}

/**
 * Segments the English, takes what the memory holds (a person's corrections first), sends the
 * rest in batches within the provider's limits, checks every segment that comes back (markup,
 * engine marks, length, English left as it was) and sends a failed one once more alone. A segment
 * that fails again keeps no translation and the post is not written: it stays as it was, and the
 * outcome names the segment and why.
 */
export async function translatePost(job: PostTranslation): Promise<Outcome> {
  const doc = job.english;
  const sources = doc.segments.map((s) => s.text);
  const outcome: Outcome = { segments: sources.length, fromMemory: 0, human: 0, sent: 0, chars: 0, authors: [], review: [], failed: [] };
  const label = providerLabel(job.provider);
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
    const hit = job.memory.lookup(source, job.lang, job.engine);
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
  const pending = sources.map((_, i) => i).filter((i) => texts[i] === undefined && !unfit.has(i));
  outcome.chars = pending.reduce((n, i) => n + sources[i]!.length, 0);
  if (job.dryRun) return outcome;
  if (outcome.chars > job.budget.chars) {
    outcome.skipped = `${outcome.chars} characters to send, over what the run may still send (${job.budget.chars}; --max-chars)`;
    return outcome;
  }
  job.budget.chars -= outcome.chars;

  const problemOf = (i: number, t: string) =>
    doc.problem(i, t) ?? contentProblem(sources[i]!, t, job.lang) ?? (job.glossary ? glossaryProblem(job.glossary.terms, sources[i]!, t, job.lang) : undefined);
  const accept = (i: number, t: string) => {
    texts[i] = t;
    outcome.authors[i] = label;
    job.memory.dropReview(sources[i]!, job.lang);
    job.memory.putMachine(sources[i]!, job.lang, job.engine, t);
  };
  const send = async (indexes: number[], note?: string) => {
    outcome.sent += indexes.length;
    return sendWithRetry(job.provider, indexes.map((i) => sources[i]!), job.lang, job.retry, note);
  };
  try {
    const retry: { i: number; problem: string; canned?: string }[] = [];
    for (const batch of batches(pending.map((i) => sources[i]!), job.provider.limits).map((b) => b.map((k) => pending[k]!))) {
      const out = await send(batch);
      // One answer for many different segments is an engine's canned reply, not their translations.
      const repeated = repeatedAnswers(batch.map((i) => sources[i]!), out);
      for (const [k, i] of batch.entries()) {
        const canned = repeated.get(out[k]!);
        const problem = canned ?? problemOf(i, out[k]!);
        if (problem === undefined) accept(i, out[k]!);
        else retry.push({ i, problem, ...(canned ? { canned: out[k]! } : {}) });
      }
      await job.checkpoint();
    }
    for (const { i, problem: before, canned } of retry) {
      const [again] = await send([i], `its translation of this segment failed a check (${before})`);
      // Alone, the same canned answer again is still refused.
      const problem = again === canned ? before : problemOf(i, again!);
      if (problem === undefined) accept(i, again!);
      else outcome.failed.push({ where: doc.segments[i]!.where, reason: problem });
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
  if (texts.length === sources.length) memory.journal(lang, fileText, sources, texts, authors, writtenRecord(glossary));
}

/**
 * Takes a current translation made outside Folio into the memory as a person's (see
 * TranslationMemory.adopt). A summary or cover alt text it lacks is left out of the English too,
 * so the rest still lines up; `translate` then sends only that one.
 */
export function adoptTranslation(memory: TranslationMemory, lang: string, english: DocumentText, translation: DocumentText, glossary: Glossary | undefined): boolean {
  const options = { protect: glossary?.protect };
  return memory.adopt(lang, segmentTexts(pairedEnglish(english, translation), options), segmentTexts(translation, options), writtenRecord(glossary));
}

/** The English without the summary or cover alt text a translation lacks, so the rest of the two line up segment by segment. */
export const pairedEnglish = (english: DocumentText, translation: DocumentText): DocumentText => ({
  ...english,
  summary: translation.summary === undefined ? undefined : english.summary,
  featuredImageAlt: translation.featuredImageAlt === undefined ? undefined : english.featuredImageAlt,
});
