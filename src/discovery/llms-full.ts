import type { Core } from '../core/index.ts';
import { LLMS_FULL_MAX_BYTES_DEFAULT } from '../core/limits.ts';
import { markdownDocument } from '../core/markdown-document.ts';
import { absolute, paths, type UrlScope } from '../core/urls.ts';

/** FOLIO_LLMS_FULL_MAX_BYTES, or the default: the most bytes of /llms-full.txt and of each of its parts. */
export function llmsFullMaxBytes(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const given = env.FOLIO_LLMS_FULL_MAX_BYTES;
  if (given === undefined || given === '') return LLMS_FULL_MAX_BYTES_DEFAULT;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 10_000 || n > 20_000_000) throw new Error(`FOLIO_LLMS_FULL_MAX_BYTES=${given}: give a whole number of bytes from 10000 to 20000000 (default ${LLMS_FULL_MAX_BYTES_DEFAULT})`);
  return n;
}

const bytes = (text: string) => Buffer.byteLength(text);

/** A file of posts: its head, then each post's Markdown twin followed by a rule (the joins as llms-full.txt always had). */
const file = (head: readonly string[], docs: readonly string[]) => [...head, '', ...docs.map((doc) => `${doc}\n---\n`)].join('\n');
/** What a post adds to a file after its head. */
const cost = (doc: string) => bytes(doc) + 6;

/**
 * /llms-full.txt (llmstxt.org: the site's content in one Markdown file) of a root, and its parts:
 * `write` gets each file's path and text. Every English post (its Markdown twin), newest first,
 * while the file stays within `maxBytes`; a root whose posts do not fit gets the newest that do,
 * with a line naming the parts `/llms-full/1.txt` … `/llms-full/{n}.txt`, which hold the older
 * posts oldest first, each within the same bound (a new post changes the file and the last part
 * only). Posts are read one part at a time: memory stays within the bound whatever the corpus.
 */
export function emitLlmsFull(core: Core, write: (path: string, text: string) => Promise<void>, maxBytes = llmsFullMaxBytes()): Promise<void> {
  return writeLlmsFull({ catalog: core.catalog, doc: async (slug) => markdownDocument(await core.posts.get(slug, new URLSearchParams())) }, write, maxBytes);
}

/** What llms-full.txt is made of: the root's catalog (newest post first) and each post's Markdown twin. */
export interface LlmsFullSource {
  catalog: UrlScope & { site: Pick<Core['catalog']['site'], 'name' | 'description' | 'attribution'>; posts: readonly { slug: string }[] };
  doc: (slug: string) => Promise<string>;
}

/** emitLlmsFull over its source. */
export async function writeLlmsFull({ catalog, doc }: LlmsFullSource, write: (path: string, text: string) => Promise<void>, maxBytes: number): Promise<void> {
  const { site } = catalog;
  const head = [`# ${site.name}`, '', `> ${site.description}`, '', site.attribution];
  const newest: string[] = [];
  let size = bytes(file(head, []));
  for (const post of catalog.posts) {
    const d = await doc(post.slug);
    newest.push(d);
    size += cost(d);
    if (size > maxBytes) break;
  }
  if (size <= maxBytes) return write(paths.llmsFull(catalog), file(head, newest));

  const total = catalog.posts.length;
  const partUrl = (n: number) => absolute(catalog, paths.llmsFullPart(catalog, n));
  const note = (shown: number, parts: number) =>
    `This file holds the ${shown} newest of ${total} posts, newest first. The older ones are in ${parts} parts, oldest first, each within ${maxBytes} bytes: ${partUrl(1)} (the oldest) to ${partUrl(parts)}.`;
  // Room for the note at its longest (every count at most `total`), then the newest posts that fit.
  let room = maxBytes - bytes(file([...head, '', note(total, total)], []));
  let shown = 0;
  while (shown < newest.length && (shown === 0 || cost(newest[shown]!) <= room)) room -= cost(newest[shown++]!);
  newest.length = shown;

  // The older posts, oldest first, in parts within the bound, read one part at a time.
  const older = catalog.posts.slice(shown).reverse();
  const partHead = (n: number) => [`# ${site.name}: older posts, part ${n}`, '', `> Posts oldest first; the newest are in ${absolute(catalog, paths.llmsFull(catalog))}.`, '', site.attribution];
  const budget = maxBytes - bytes(file(partHead(total), []));
  let parts = 0;
  let part: string[] = [];
  let partSize = 0;
  const flush = async () => {
    parts++;
    await write(paths.llmsFullPart(catalog, parts), file(partHead(parts), part));
    [part, partSize] = [[], 0];
  };
  for (const post of older) {
    const d = await doc(post.slug);
    if (part.length && partSize + cost(d) > budget) await flush();
    part.push(d);
    partSize += cost(d);
  }
  if (part.length) await flush();
  await write(paths.llmsFull(catalog), file([...head, '', note(shown, parts)], newest));
}
