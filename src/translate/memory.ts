import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeWhole } from '../fs/write-whole.ts';
import { similarity } from './similarity.ts';

/**
 * A post's segment translation memory, kept beside it (`content/posts/<slug>/.translation-memory.json`,
 * committed with the post). Machine translations are keyed by the English segment, the target
 * language and the engine (`<provider>:<version>` plus the glossary's digest); a human correction
 * by the segment and language alone, and it wins over every engine while its English segment is
 * unchanged. `written` is what each translation file was last written from, segment by segment,
 * so an edit made in the file since can be told apart from what Folio wrote.
 */
export interface MemoryData {
  version: 1;
  /**
   * English segment digest -> language -> translations. `review`: the `human` text is a person's
   * translation of an earlier English of this segment, carried over when the English changed and
   * kept until a person edits or approves it (or `--retranslate-reviewed` replaces it).
   */
  segments: Record<string, Record<string, { machine?: Record<string, string>; human?: string; review?: true }>>;
  /**
   * Language -> the segments written into its file, in order: [English digest, text written, who
   * wrote it]: `<provider>:<version>`, `person`, or `review` (a person's text awaiting review).
   * Memories written before authors were kept have none (a person's where `human` is that text).
   */
  written: Record<string, WrittenSegment[]>;
  /** Language -> the glossary its file was written with; none recorded: written without one. */
  glossaries?: Record<string, WrittenGlossary>;
  /**
   * The journal of a file being written (see journal()): saved before the file, replaced by
   * `written` after it. A run killed in between leaves it; settle() then tells by the file's
   * checksum whether the file was written.
   */
  pending?: Record<string, { checksum: string; written: WrittenSegment[]; glossary?: WrittenGlossary }>;
  /**
   * English segment digest -> its text (segments and sentences put since sentences were kept), so
   * a new segment can be offered the translation of a similar one (fuzzy matches).
   */
  sources?: Record<string, string>;
  /** `<lang> <provider>:<version>`: this engine's entries into the language are kept per sentence too (translate-post.ts upgradeMemory). */
  upgraded?: string[];
}

/** [English digest, text written, author]. */
export type WrittenSegment = [string, string, string?];

/** Who wrote a segment of a file: an engine (`<provider>:<version>`), a person, or a person's text whose English changed. */
export const PERSON = 'person';
export const REVIEW = 'review';
/** A segment's text made for an earlier English of it (authorsOf): the English changed since it was written. */
export const CHANGED = 'changed';

export const fileChecksum = (text: string) => createHash('sha256').update(text).digest('hex');

/** A glossary as a written file depends on it: its digest, and the kept terms its segments were read with. */
export interface WrittenGlossary {
  digest: string;
  keep: string[];
  /** The fixed translations into the file's language (term -> translation); none recorded: written before they were kept. */
  terms?: Record<string, string>;
}

export const MEMORY_FILE = '.translation-memory.json';

export const segmentKey = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

export class TranslationMemory {
  private readonly file: string;
  private readonly data: MemoryData;
  private constructor(file: string, data: MemoryData) {
    this.file = file;
    this.data = data;
  }

  static async open(file: string): Promise<TranslationMemory> {
    let data: MemoryData = { version: 1, segments: {}, written: {} };
    try {
      data = JSON.parse(await readFile(file, 'utf8')) as MemoryData;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file}: not a translation memory (${(e as Error).message})`);
    }
    return new TranslationMemory(file, data);
  }

  private entry(source: string, lang: string) {
    const byLang = (this.data.segments[segmentKey(source)] ??= {});
    return (byLang[lang] ??= {});
  }

  /**
   * What a segment becomes in a language: a person's correction first (`review` when its English
   * changed since), else this engine's earlier output. `engine` may be several keys, the current
   * one first: an output found under an older key (see glossary.ts segmentEngineKey) is copied to it.
   */
  lookup(source: string, lang: string, engine: string | readonly string[]): { text: string; human: boolean; review?: boolean } | undefined {
    const e = this.data.segments[segmentKey(source)]?.[lang];
    if (e?.human !== undefined) return { text: e.human, human: true, ...(e.review ? { review: true } : {}) };
    const machine = this.machine(source, lang, typeof engine === 'string' ? [engine] : engine);
    return machine === undefined ? undefined : { text: machine, human: false };
  }

  /** This engine's earlier output for a segment (or a sentence), under the first key that has one; copied to the first key. */
  machine(source: string, lang: string, engines: readonly string[]): string | undefined {
    const machine = this.data.segments[segmentKey(source)]?.[lang]?.machine;
    const found = engines.find((k) => machine?.[k] !== undefined);
    if (found === undefined) return undefined;
    if (found !== engines[0]) this.putMachine(source, lang, engines[0]!, machine![found]!);
    return machine![found];
  }

  putMachine(source: string, lang: string, engine: string, text: string): void {
    (this.entry(source, lang).machine ??= {})[engine] = text;
    this.remember(source);
  }

  /** Has this engine's memory into the language been brought up to sentences (once; later entries are kept so as they are put)? */
  upgraded(lang: string, label: string): boolean {
    return this.data.upgraded?.includes(`${lang} ${label}`) === true;
  }

  markUpgraded(lang: string, label: string): void {
    (this.data.upgraded ??= []).push(`${lang} ${label}`);
  }

  /** Is a segment's English text kept (for fuzzy matches)? */
  knows(source: string): boolean {
    return this.data.sources?.[segmentKey(source)] !== undefined;
  }

  /** Keeps a segment's English text, so later segments like it can be offered its translation. */
  remember(source: string): void {
    (this.data.sources ??= {})[segmentKey(source)] = source;
  }

  /**
   * The segment most like this one (at least `minimum` similar: see similarity.ts) whose
   * translation into the language the memory holds, a person's first: a fuzzy match, offered to
   * a language model as an example. The segment itself is not its own match.
   */
  similar(source: string, lang: string, minimum: number): { source: string; translation: string; similarity: number } | undefined {
    let best: { source: string; translation: string; similarity: number } | undefined;
    const own = segmentKey(source);
    for (const [digest, english] of Object.entries(this.data.sources ?? {})) {
      if (digest === own) continue;
      const e = this.data.segments[digest]?.[lang];
      const translation = e?.human ?? Object.values(e?.machine ?? {})[0];
      if (translation === undefined) continue;
      const ratio = similarity(source, english, best?.similarity ?? minimum);
      if (ratio >= (best?.similarity ?? minimum) && ratio > 0 && (!best || ratio > best.similarity)) best = { source: english, translation, similarity: ratio };
    }
    return best;
  }

  /** Drops a person's text awaiting review for this English (`--retranslate-reviewed`: an engine's replaces it). */
  dropReview(source: string, lang: string): void {
    const e = this.entry(source, lang);
    if (!e.review) return;
    delete e.human;
    delete e.review;
  }

  /**
   * Carries a person's text over to the English that replaced its segment: the segments the file
   * was written from are aligned with the current English (unchanged segments as anchors, changed
   * ones paired in order between them); where a changed segment's written text was a person's,
   * the new English segment takes it, flagged `review`. Returns how many were carried.
   */
  carryOver(lang: string, sources: readonly string[]): number {
    const written = this.data.written[lang];
    if (!written) return 0;
    let carried = 0;
    for (const [from, to] of changedPairs(written.map(([d]) => d), sources.map(segmentKey))) {
      const [digest, text, by] = written[from]!;
      const old = this.data.segments[digest]?.[lang];
      const persons = by === undefined ? old?.human === text : by === PERSON || by === REVIEW;
      if (!persons) continue;
      const target = this.entry(sources[to]!, lang);
      if (target.human !== undefined) continue;
      target.human = text;
      target.review = true;
      carried++;
    }
    return carried;
  }

  /**
   * Compares a translation file's segments with what was written into it: every segment that
   * differs was edited by a person and is kept as theirs. Returns how many, or undefined when the
   * file no longer lines up with what was written (a paragraph added or removed by hand).
   */
  recordHumanEdits(lang: string, current: readonly string[]): number | undefined {
    const written = this.data.written[lang];
    if (!written) return 0;
    if (written.length !== current.length) return undefined;
    let edits = 0;
    for (const [i, [digest, text]] of written.entries()) {
      if (current[i] === text) continue;
      const e = ((this.data.segments[digest] ??= {})[lang] ??= {});
      // A person's edit of a segment awaiting review is their review of it.
      e.human = current[i]!;
      delete e.review;
      written[i] = [digest, current[i]!, PERSON];
      edits++;
    }
    return edits;
  }

  /** Has Folio written (or adopted) this language's file? */
  hasRecord(lang: string): boolean {
    return this.data.written[lang] !== undefined;
  }

  /**
   * A translation made outside Folio that matches the current English, taken as a person's work
   * segment by segment, so a later English edit sends only the segments it changed. False when its
   * blocks do not line up with the English.
   */
  adopt(lang: string, sources: readonly string[], texts: readonly string[], glossary?: WrittenGlossary): boolean {
    if (sources.length !== texts.length) return false;
    for (const [i, source] of sources.entries()) this.entry(source, lang).human = texts[i]!;
    this.setWritten(lang, written(sources, texts, sources.map(() => PERSON)), glossary);
    return true;
  }

  private setWritten(lang: string, segments: WrittenSegment[], glossary?: WrittenGlossary): void {
    this.data.written[lang] = segments;
    if (glossary) (this.data.glossaries ??= {})[lang] = glossary;
    else if (this.data.glossaries) delete this.data.glossaries[lang];
  }

  /**
   * The journal of a file about to be written (saved with the memory before the file): what it
   * is written from, segment by segment with its author, and the checksum of the file's text.
   * commit() makes it the record once the file is written; a run killed before is settled by the next.
   */
  journal(lang: string, fileText: string, sources: readonly string[], texts: readonly string[], authors: readonly string[], glossary?: WrittenGlossary): void {
    (this.data.pending ??= {})[lang] = { checksum: fileChecksum(fileText), written: written(sources, texts, authors), ...(glossary ? { glossary } : {}) };
  }

  /** The file of the journal was written: it is now what the file was written from. */
  commit(lang: string): void {
    const entry = this.data.pending?.[lang];
    if (!entry) return;
    this.setWritten(lang, entry.written, entry.glossary);
    delete this.data.pending![lang];
  }

  /**
   * A journal a killed run left, against the file as it is (undefined: none): the file it was to
   * write is there (same checksum) and it becomes the record; otherwise the file was never written
   * and the journal is dropped. Either way what the file holds is compared with what was truly
   * written into it, so no engine's text is ever taken for a person's. True when anything changed.
   */
  settle(lang: string, fileText: string | undefined): boolean {
    const entry = this.data.pending?.[lang];
    if (!entry) return false;
    if (fileText !== undefined && fileChecksum(fileText) === entry.checksum) this.commit(lang);
    else delete this.data.pending![lang];
    return true;
  }

  /** The languages with a journal left by a killed run. */
  pendingLanguages(): string[] {
    return Object.keys(this.data.pending ?? {});
  }

  /** A person approved the file (`translations verify`): its texts awaiting review become theirs for the current English. Returns how many. */
  approveReviews(lang: string): number {
    let approved = 0;
    for (const [i, [digest, text, by]] of (this.data.written[lang] ?? []).entries()) {
      if (by !== REVIEW) continue;
      const e = this.data.segments[digest]?.[lang];
      if (e) delete e.review;
      this.data.written[lang]![i] = [digest, text, PERSON];
      approved++;
    }
    return approved;
  }

  /**
   * Who wrote each segment of a language's file, read against the current English (`sources`) and
   * the file as it is now (`texts`, lined up with them): `changed` (made for an earlier English of
   * the segment), `review` (a person's text carried to a changed English), `person` (written,
   * edited or approved by one), an engine's `<provider>:<version>`, or undefined where Folio keeps
   * no record of the file.
   */
  authorsOf(lang: string, sources: readonly string[], texts: readonly string[]): (string | undefined)[] {
    const record = this.data.written[lang];
    const lined = record?.length === sources.length ? record : undefined;
    return sources.map((source, i) => {
      const e = this.data.segments[segmentKey(source)]?.[lang];
      const w = lined?.[i];
      if (!w) return e?.human !== undefined && e.human === texts[i] ? (e.review ? REVIEW : PERSON) : undefined;
      if (w[0] !== segmentKey(source)) return CHANGED;
      // Edited in the file since Folio wrote it: a person's, as recordHumanEdits takes it.
      if (w[1] !== texts[i]) return PERSON;
      return w[2] ?? (e?.human === w[1] ? PERSON : undefined);
    });
  }

  /**
   * A person approved segments of a language's file against the current English (the review
   * page): each of `approved` becomes theirs for its English `sources[i]`, with the file's text
   * `texts[i]` (no longer awaiting review). The record follows the file: other segments keep their
   * authors, and a file Folio kept no record of gets one, its other segments credited to
   * `unrecorded` (the engine its front matter names, or `person`). `texts` line up with `sources`.
   */
  approve(lang: string, sources: readonly string[], texts: readonly string[], approved: readonly number[], unrecorded: string): void {
    const record = this.data.written[lang];
    const lined = record?.length === sources.length ? record : undefined;
    const authors = this.authorsOf(lang, sources, texts);
    const next: WrittenSegment[] = sources.map((source, i) => {
      const w = lined?.[i];
      if (w && authors[i] === PERSON && w[1] !== texts[i]) {
        // A hand edit made since: kept as the person's under the English it was made for.
        ((this.data.segments[w[0]] ??= {})[lang] ??= {}).human = texts[i]!;
        return [w[0], texts[i]!, PERSON];
      }
      return w ?? [segmentKey(source), texts[i]!, authors[i] ?? unrecorded];
    });
    for (const i of approved) {
      const e = this.entry(sources[i]!, lang);
      e.human = texts[i]!;
      delete e.review;
      next[i] = [segmentKey(sources[i]!), texts[i]!, PERSON];
    }
    this.data.written[lang] = next;
  }

  /** Where a language's file holds a person's text whose English changed since: indexes into what it was written from. */
  reviewCount(lang: string): number {
    return (this.data.written[lang] ?? []).filter(([, , by]) => by === REVIEW).length;
  }

  /** The glossary a language's file was written with (digest '' and no terms: none), or undefined if Folio never wrote it. */
  writtenGlossary(lang: string): WrittenGlossary | undefined {
    if (!this.hasRecord(lang)) return undefined;
    return this.data.glossaries?.[lang] ?? { digest: '', keep: [] };
  }

  /** How many of these English segments the file of a language was not written from (its stale segments). */
  staleCount(lang: string, sources: readonly string[]): number | undefined {
    const written = this.data.written[lang];
    if (!written) return undefined;
    const had = new Set(written.map(([digest]) => digest));
    return sources.filter((s) => !had.has(segmentKey(s))).length;
  }

  /** Saved by a rename, so a run killed mid-write leaves the last whole memory. */
  async save(): Promise<void> {
    await writeWhole(this.file, `${JSON.stringify(this.data, null, 1)}\n`);
  }
}

const written = (sources: readonly string[], texts: readonly string[], authors: readonly string[]): WrittenSegment[] => sources.map((s, i) => [segmentKey(s), texts[i]!, authors[i]!]);

/**
 * The changed segments of an old sequence paired with the new one's: the longest common
 * subsequence of digests anchors what did not change; between two anchors, the old and new
 * segments left are paired in order (an edited paragraph stays where it was).
 */
export function changedPairs(old: readonly string[], now: readonly string[]): [number, number][] {
  const n = old.length;
  const m = now.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = old[i] === now[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const pairs: [number, number][] = [];
  let gapOld: number[] = [];
  let gapNew: number[] = [];
  const flush = () => {
    for (let k = 0; k < Math.min(gapOld.length, gapNew.length); k++) pairs.push([gapOld[k]!, gapNew[k]!]);
    gapOld = [];
    gapNew = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && old[i] === now[j]) {
      flush();
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) gapOld.push(i++);
    else gapNew.push(j++);
  }
  flush();
  return pairs;
}
