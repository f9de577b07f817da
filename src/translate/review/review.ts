import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PhrasingContent } from 'mdast';
import { TRANSLATED_CODES } from '../../core/languages.ts';
import { SLUG_PATTERN } from '../../core/params.ts';
import { writeWhole } from '../../fs/write-whole.ts';
import { loadPage, loadPost, type FolderSource, type PageEnglishSource } from '../../pipeline/load/posts.ts';
import { ExchangeError, currentTargets, planImport } from '../exchange/xliff.ts';
import { glossaryChanged, loadGlossary } from '../glossary.ts';
import { escapeText, inlineMarkdown, unescapeText } from '../inline-markup.ts';
import { CHANGED, MEMORY_FILE, PERSON, REVIEW, TranslationMemory, fileChecksum } from '../memory.ts';
import { documentText, segmentDocument } from '../segments.ts';
import { pairedEnglish, reviewPlace, segmentTexts } from '../translate-post.ts';
import { translationFile } from '../translation-file.ts';
import { englishText, translationMarks, verifyRefusal, type TranslationMark } from '../translation-status.ts';

/**
 * The review of one translation, segment by segment (the review page of `npm run dev`): the
 * English and the translation side by side, cut as the memory cuts them (segmentDocument), with
 * who wrote each (the memory's record), and a person's approval of one segment at a time, edited
 * or not, written as the XLIFF import writes (only the changed block rebuilt, every other byte
 * kept) and recorded in the memory as the person's.
 */

/** A request the review cannot take: its HTTP status and one line saying why. */
export class ReviewError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** What a segment is now: made for an earlier English, a person's text under a changed English, an engine's, or a person's (approved). */
export type SegmentState = 'changed' | 'review' | 'machine' | 'person';

export interface ReviewSegment {
  where: string;
  /** The English as tagged text (inline-markup.ts). */
  english: string;
  /** The translation in the reviewer's form (editable()), its placeholders numbered as the English's. */
  text: string;
  /** What placeholder n stands for (slots[n - 1]): `link to <url>`, or the Markdown kept as it is. */
  slots: string[];
  state: SegmentState;
  /** The engine (`<provider>:<version>`) of a machine segment. */
  engine?: string;
}

export interface ReviewView {
  slug: string;
  lang: string;
  /** The translation file, relative to the content folder's parent as the loader names it. */
  file: string;
  title: string;
  /** The translation file's checksum: a save names it, and is refused if the file changed since. */
  checksum: string;
  /** Why it cannot be reviewed here (its blocks do not line up, ...), or undefined. */
  problem?: string;
  /** Why it cannot be verified as it is (stale: `translations verify`'s refusal), or undefined. */
  refusal?: string;
  verified: boolean;
  verifiedBy?: string;
  verifiedAt?: string;
  segments: ReviewSegment[];
}

const TAG = /(<\/?(?:em|strong|del|a|x)(?:\s+i="\d+")?\s*\/?>)/i;

/** Tagged text in the form a reviewer edits: words unescaped, an empty placeholder written `<x i="n"/>`. */
export const editable = (tagged: string) =>
  tagged
    .replace(/<x i="(\d+)"><\/x>/g, '<x i="$1"/>')
    .split(TAG)
    .map((part, i) => (i % 2 ? part : unescapeText(part)))
    .join('');

/** The reviewer's form back to tagged text: words escaped around the tags, a line break a space (a segment is one block). */
export const fromEditable = (text: string) =>
  text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .split(TAG)
    .map((part, i) => (i % 2 ? part : escapeText(part)))
    .join('');

const slotLabel = (node: PhrasingContent) => (node.type === 'link' ? `link to ${node.url}` : node.type === 'linkReference' ? `link [${node.identifier}]` : inlineMarkdown([node]));

type Translatable = FolderSource<PageEnglishSource>;

async function loadTranslatable(contentDir: string, slug: string): Promise<Translatable> {
  if (!SLUG_PATTERN.test(slug)) throw new ReviewError(404, `no post or page "${slug}"`);
  if (existsSync(join(contentDir, 'posts', slug))) return loadPost(join(contentDir, 'posts'), slug);
  if (existsSync(join(contentDir, 'pages', slug))) return loadPage(join(contentDir, 'pages'), slug);
  throw new ReviewError(404, `no post "${slug}" in ${contentDir}/posts (nor a page in ${contentDir}/pages)`);
}

/** Everything one review reads, from disk as it is now. */
async function open(contentDir: string, slug: string, lang: string) {
  if (!TRANSLATED_CODES.includes(lang)) throw new ReviewError(404, `"${lang}" is not one of the 13 translated languages (${TRANSLATED_CODES.join(', ')})`);
  const post = await loadTranslatable(contentDir, slug);
  const t = post.translations.find((x) => x.lang === lang);
  if (!t) throw new ReviewError(404, `${slug} has no ${lang} translation (npm run translate -- ${slug} --lang ${lang})`);
  const raw = await readFile(t.file, 'utf8');
  const glossary = await loadGlossary(contentDir);
  const options = { protect: glossary?.protect };
  const memory = await TranslationMemory.open(join(post.dir, MEMORY_FILE));
  // A journal a killed run left is settled first, as `translate` does (nothing saved here unless a save follows).
  memory.settle(lang, raw);
  const translation = documentText(t, t.body);
  // A summary or cover alt text the translation lacks is left out (`translate` adds it): the rest lines up.
  const english = pairedEnglish(documentText(post.english, post.english.body), translation);
  const base = { post, t, raw, glossary, options, memory, english, translation };
  const problem =
    post.english.format !== 'md' || t.format !== 'md'
      ? 'not written in Markdown: review it in its file'
      : !t.source_hash
        ? `not stamped yet: npm run translations -- stamp ${slug} ${lang}, then review it`
        : glossaryChanged(memory.writtenGlossary(lang), glossary, { text: englishText(post), lang })
          ? `written with another glossary: npm run translate -- ${slug} --lang ${lang} first`
          : undefined;
  if (problem) return { ...base, problem, lined: undefined };
  const en = segmentDocument(english, options);
  const tr = segmentDocument(translation, options);
  const targets = currentTargets(en, tr);
  if (!targets) return { ...base, problem: 'its blocks do not line up with the English (added or removed by hand): edit the file to match the English, or translate it anew', lined: undefined };
  const sources = en.segments.map((s) => s.text);
  const texts = tr.segments.map((s) => s.text);
  return { ...base, problem: undefined, lined: { en, targets, sources, texts } };
}

/** A segment's state from its author in the memory; a file Folio keeps no record of is its front matter's (an engine's when `automated`). */
function stateOf(author: string | undefined, automated: boolean, provider: string | null): { state: SegmentState; engine?: string } {
  if (author === CHANGED) return { state: 'changed' };
  if (author === REVIEW) return { state: 'review' };
  if (author === PERSON || (author === undefined && !automated)) return { state: 'person' };
  return { state: 'machine', engine: author ?? provider ?? 'unknown' };
}

/** The review of `<slug>`'s translation into `lang`, as the files and the memory hold it now. */
export async function reviewView(contentDir: string, slug: string, lang: string): Promise<ReviewView> {
  const o = await open(contentDir, slug, lang);
  const view: ReviewView = {
    slug,
    lang,
    file: o.t.file,
    title: o.translation.title,
    checksum: fileChecksum(o.raw),
    verified: o.t.verified,
    ...(o.t.verified_by ? { verifiedBy: o.t.verified_by } : {}),
    // The loader reads the date as a timestamp; the file says the day.
    ...(o.t.verified_at ? { verifiedAt: o.t.verified_at.slice(0, 10) } : {}),
    segments: [],
  };
  const refusal = verifyRefusal(o.post, lang);
  if (refusal) view.refusal = refusal;
  if (!o.lined) return { ...view, ...(o.problem ? { problem: o.problem } : {}) };
  const { en, targets, sources, texts } = o.lined;
  const authors = o.memory.authorsOf(lang, sources, texts);
  view.segments = en.segments.map((s, i) => ({
    where: s.where,
    english: s.text,
    text: editable(targets[i]!),
    slots: en.slots(i).map(slotLabel),
    ...stateOf(authors[i], o.t.automated, o.t.provider),
  }));
  return view;
}

/** One approval: segment `index` as the reviewer left it (editable form), by whom and on what day, against the file they saw. */
export interface Approval {
  index: number;
  text: string;
  by: string;
  /** An ISO date, YYYY-MM-DD. */
  at: string;
  checksum: string;
}

// Saves one at a time: each reads the files the last one wrote.
let queue: Promise<unknown> = Promise.resolve();

/**
 * Approves one segment: its text (changed or not) is written into the translation file, only its
 * block rebuilt (planImport, as an XLIFF import writes), then the memory records it as the
 * person's for the current English (the file first: a save killed between the two leaves an edit
 * that the next run reads as a person's, never an engine's text taken for one). The file records
 * the reviewer and the day (`verified_by`, `verified_at`) and `verified: true` once every segment
 * is a person's, unless the file is stale (then, as `translations verify` refuses, it stays false).
 */
export function approveSegment(contentDir: string, slug: string, lang: string, approval: Approval): Promise<ReviewView> {
  const run = queue.then(() => approve(contentDir, slug, lang, approval));
  queue = run.catch(() => undefined);
  return run;
}

async function approve(contentDir: string, slug: string, lang: string, a: Approval): Promise<ReviewView> {
  const o = await open(contentDir, slug, lang);
  if (!o.lined) throw new ReviewError(409, `${o.t.file} cannot be reviewed here: ${o.problem}`);
  const { en, targets, sources } = o.lined;
  if (fileChecksum(o.raw) !== a.checksum) throw new ReviewError(409, `${o.t.file} changed since this page was loaded (saved elsewhere, or translated again): reload the page`);
  if (!Number.isInteger(a.index) || a.index < 0 || a.index >= sources.length) throw new ReviewError(400, `no segment ${a.index} (the translation has ${sources.length})`);
  const edited = editable(targets[a.index]!) === a.text ? targets[a.index]! : fromEditable(a.text);
  let doc = o.translation;
  if (edited !== targets[a.index]) {
    const units = sources.map((source, i) => ({ id: `u${i + 1}`, source, target: i === a.index ? edited : targets[i]! }));
    try {
      doc = planImport({ slug, lang, units }, o.t.file, o.english, o.translation, o.options).result ?? o.translation;
    } catch (e) {
      if (!(e instanceof ExchangeError)) throw e;
      // planImport names the unit; the page names the segment itself.
      throw new ReviewError(400, e.message.replace(/^.*?: unit u\d+ \(([^)]*)\): /, '$1: '));
    }
  }
  const texts = segmentTexts(doc, o.options);
  if (texts.length !== sources.length) throw new ReviewError(400, `${en.segments[a.index]!.where}: the edit would change the file's blocks (a new paragraph, heading or list): keep it to this segment's words`);
  o.memory.approve(lang, sources, texts, [a.index], o.t.automated ? (o.t.provider ?? PERSON) : PERSON);
  const authors = o.memory.authorsOf(lang, sources, texts);
  const everyOne = authors.every((x) => x === PERSON);
  const fileText = translationFile(doc, {
    provider: o.t.provider,
    automated: o.t.automated,
    sourceHash: o.t.source_hash!,
    ...(o.t.modified ? { modified: o.t.modified } : {}),
    ...(o.t.draft ? { draft: true } : {}),
    needsReview: authors.flatMap((x, i) => (x === REVIEW ? [reviewPlace(en.segments[i]!.where)] : [])),
    review: { by: a.by, at: a.at, verified: everyOne && !verifyRefusal(o.post, lang) },
  });
  await writeWhole(o.t.file, fileText);
  await o.memory.save();
  return reviewView(contentDir, slug, lang);
}

export interface IndexRow {
  slug: string;
  kind: 'post' | 'page';
  title: string;
  /** Per translated language: its mark as `translations status` shows it, and whether a person verified it. */
  languages: (TranslationMark & { lang: string; verified: boolean })[];
}

/** Every post and page with each translation's state (the review index), as `translations status` reads them. */
export async function reviewIndex(contentDir: string, all: readonly { source: Translatable; kind: 'post' | 'page' }[]): Promise<IndexRow[]> {
  const glossary = await loadGlossary(contentDir);
  return Promise.all(
    all.map(async ({ source, kind }) => {
      const marks = await translationMarks(source, glossary);
      return {
        slug: source.slug,
        kind,
        title: source.english.title,
        languages: TRANSLATED_CODES.map((lang) => ({ lang, ...marks[lang]!, verified: source.translations.find((x) => x.lang === lang)?.verified ?? false })),
      };
    }),
  );
}
