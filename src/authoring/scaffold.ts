import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../core/languages.ts';
import { SLUG_PATTERN } from '../core/params.ts';
import { loadPost } from '../pipeline/load/posts.ts';
import { RESERVED_SLUGS } from '../pipeline/load/reserved.ts';
import { slugify } from '../pipeline/load/slugify.ts';

/** A scaffolding request the author cannot have meant: said in one line. */
export class ScaffoldError extends Error {}

const quoted = (s: string) => JSON.stringify(s);

/**
 * `npm run new`: a post folder with an English source whose front matter is valid (it is read back
 * by the build's own loader before this returns), or, with `lang`, a translation of an existing
 * post: the English title and body to translate, unstamped (unpublished until translated and stamped).
 */
export async function scaffold(contentDir: string, input: { title: string; slug?: string; lang?: string; now?: Date }): Promise<string> {
  const title = input.title.trim();
  if (!title) throw new ScaffoldError('a title is needed: npm run new -- "The title" [--slug the-slug] [--lang fr]');
  const slug = input.slug ?? slugify(title);
  if (!SLUG_PATTERN.test(slug)) throw new ScaffoldError(`"${slug}" is not a valid slug: lower-case letters, digits and single hyphens (--slug to choose one)`);
  if (RESERVED_SLUGS.has(slug)) throw new ScaffoldError(`"${slug}" is reserved (a site path uses it): choose another with --slug`);
  const postsDir = join(contentDir, 'posts');
  const dir = join(postsDir, slug);
  const lang = input.lang ?? DEFAULT_LANGUAGE;
  if (!LANGUAGE_CODES.includes(lang)) throw new ScaffoldError(`--lang ${lang} is not a supported language (${LANGUAGE_CODES.join(', ')})`);
  if (lang === DEFAULT_LANGUAGE) {
    if (existsSync(dir)) throw new ScaffoldError(`${dir} already exists: choose another --slug`);
    const date = (input.now ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'en.md');
    await writeFile(file, `---\ntitle: ${quoted(title)}\ndate: ${date}\ndraft: true\ncategories: []\ntags: []\n---\n\nWrite the essay here, in Markdown.\n`);
    await loadPost(postsDir, slug);
    return file;
  }
  if (!existsSync(join(dir, 'en.md')) && !existsSync(join(dir, 'en.html'))) throw new ScaffoldError(`${dir} has no English source to translate: run npm run new -- ${quoted(title)} first`);
  const file = join(dir, `${lang}.md`);
  if (existsSync(file) || existsSync(join(dir, `${lang}.html`))) throw new ScaffoldError(`${dir} already has a ${lang} translation`);
  const { english } = await loadPost(postsDir, slug);
  // It holds the English to translate, unstamped: never published as the English text. `npm run translate`
  // fills it, or the author does and stamps it.
  await writeFile(file, `---\ntitle: ${quoted(english.title)}\nautomated: false\nverified: false\n---\n\n${english.body}`);
  return file;
}
