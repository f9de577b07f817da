import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../core/languages.ts';
import { loadPost } from '../pipeline/load/posts.ts';

/** A publishing request the author cannot have meant: said in one line. */
export class PublishError extends Error {}

/** The front matter's `draft: true` line (the only form `draft` takes besides `false`, which is not a draft). */
const DRAFT_LINE = /^draft:[ \t]*true[ \t]*(?:#.*)?\r?\n/m;

/** The text without its front matter's draft line, or undefined when it has none. */
export function withoutDraft(text: string): string | undefined {
  const end = /^---\r?\n[\s\S]*?\r?\n---\r?\n/.exec(text)?.[0].length;
  if (end === undefined) return undefined;
  const matter = text.slice(0, end);
  return DRAFT_LINE.test(matter) ? matter.replace(DRAFT_LINE, '') + text.slice(end) : undefined;
}

/**
 * `npm run publish -- <slug> [lang...]`: clears `draft: true` from the post's English source (the
 * whole post) or from the translations named, and reads the post back with the build's own loader.
 * Returns the files changed and the post's date (a future one goes out then).
 */
export async function publishDraft(contentDir: string, slug: string | undefined, langs: readonly string[]): Promise<{ files: string[]; date: string }> {
  if (!slug) throw new PublishError('usage: npm run publish -- <slug> [lang...] (no language: the whole post, by its English source)');
  const postsDir = join(contentDir, 'posts');
  const dir = join(postsDir, slug);
  if (!existsSync(dir)) throw new PublishError(`no post "${slug}" in ${postsDir}`);
  const unknown = langs.filter((l) => !LANGUAGE_CODES.includes(l));
  if (unknown.length > 0) throw new PublishError(`"${unknown[0]}" is not a supported language (${LANGUAGE_CODES.join(', ')})`);
  const post = await loadPost(postsDir, slug).catch((e: Error) => {
    throw new PublishError(e.message.split('\n')[0]!);
  });
  const wanted = langs.length > 0 ? [...new Set(langs)] : [DEFAULT_LANGUAGE];
  const changes: { file: string; text: string }[] = [];
  for (const lang of wanted) {
    const source = lang === DEFAULT_LANGUAGE ? post.english : post.translations.find((t) => t.lang === lang);
    if (!source) throw new PublishError(`${slug} has no ${lang} translation`);
    const text = withoutDraft(source.raw);
    if (text === undefined) throw new PublishError(`${source.file} is not a draft (no draft: true in its front matter): nothing to publish`);
    changes.push({ file: source.file, text });
  }
  // All or nothing: every file is checked before the first is written.
  for (const { file, text } of changes) await writeFile(file, text);
  await loadPost(postsDir, slug);
  return { files: changes.map((c) => c.file), date: post.english.date };
}
