import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeWhole } from '../fs/write-whole.ts';

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
  /** English segment digest -> language -> translations. */
  segments: Record<string, Record<string, { machine?: Record<string, string>; human?: string }>>;
  /** Language -> the segments written into its file, in order: [English digest, text written]. */
  written: Record<string, [string, string][]>;
  /** Language -> the glossary its file was written with; none recorded: written without one. */
  glossaries?: Record<string, WrittenGlossary>;
}

/** A glossary as a written file depends on it: its digest, and the kept terms its segments were read with. */
export interface WrittenGlossary {
  digest: string;
  keep: string[];
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

  /** What a segment becomes in a language: a person's correction first, else this engine's earlier output. */
  lookup(source: string, lang: string, engine: string): { text: string; human: boolean } | undefined {
    const e = this.data.segments[segmentKey(source)]?.[lang];
    if (e?.human !== undefined) return { text: e.human, human: true };
    const machine = e?.machine?.[engine];
    return machine === undefined ? undefined : { text: machine, human: false };
  }

  putMachine(source: string, lang: string, engine: string, text: string): void {
    (this.entry(source, lang).machine ??= {})[engine] = text;
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
      ((this.data.segments[digest] ??= {})[lang] ??= {}).human = current[i]!;
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
    this.wrote(lang, sources, texts, glossary);
    return true;
  }

  /** Records what a translation file was written from (see recordHumanEdits), and with which glossary. */
  wrote(lang: string, sources: readonly string[], texts: readonly string[], glossary?: WrittenGlossary): void {
    this.data.written[lang] = sources.map((s, i) => [segmentKey(s), texts[i]!]);
    if (glossary) (this.data.glossaries ??= {})[lang] = glossary;
    else if (this.data.glossaries) delete this.data.glossaries[lang];
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
