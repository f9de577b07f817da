import { join } from 'node:path';
import { paths, type UrlScope } from '../../core/urls.ts';
import { MAIN_ID } from '../../site/page-specs.ts';
import { localName, type Reference } from '../derive/render.ts';
import { FileError } from '../load/file-error.ts';
import type { SitePaths } from './site-paths.ts';

/** What the link check needs of one published source file: its references (lines in the file) and its ids. */
export interface FileLinks {
  /** The file's name in its post folder (`en.md`). */
  name: string;
  lang: string;
  refs: Reference[];
  ids: string[];
}

/** Per post slug, its published files' links: written into the bundle, so a post taken from the live build is checked too. */
export type PostLinks = Record<string, FileLinks[]>;

export const LINKS_FILE = 'links.json';

export { bodyLineOffset } from '../load/body-line.ts';

export interface LinkCheck {
  postsDir: string;
  scope: UrlScope;
  site: SitePaths;
  /** Each post's own files (not its Markdown), by slug. */
  assets: ReadonlyMap<string, readonly string[]>;
  links: PostLinks;
  /** Posts that did not load (their errors are reported): a missing path that may be theirs is not judged. */
  pending?: ReadonlySet<string>;
  /** The folder of a slug that is not a post's (a standalone page's, content/pages/<slug>). */
  folders?: ReadonlyMap<string, string>;
}

/** Edit distance, for the nearest name to suggest. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The candidate nearest to `name`, when it is near enough to be what was meant. */
function nearest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    const d = distance(name, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const decode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * Every reference of every published file that leads nowhere on the site, one error each: a path
 * the root does not answer, a sibling file that is not in the post folder, a fragment that names no
 * id of the post it points at. External URLs are never fetched; the site's own absolute URLs are
 * checked as paths; a path of another root (the sandbox) is that root's to check.
 */
export async function checkLinks({ postsDir, scope, site, assets, links, pending = new Set(), folders = new Map() }: LinkCheck): Promise<FileError[]> {
  const errors: FileError[] = [];
  const origin = new URL(scope.site_url).origin;
  const idsOf = (slug: string, lang: string) => links[slug]?.find((f) => f.lang === lang)?.ids;
  for (const [slug, files] of Object.entries(links)) {
    const own = assets.get(slug) ?? [];
    const page = `${origin}${paths.post(scope, slug, '')}`;
    for (const file of files) {
      const fail = (ref: Reference, what: string) => errors.push(new FileError(join(folders.get(slug) ?? join(postsDir, slug), file.name), ref.what, `${ref.url} ${what}`, ref.line));
      const pagePath = paths.post(scope, slug, file.lang);
      for (const ref of file.refs) {
        const written = ref.url.trim();
        if (written === '' || (SCHEME.test(written) && !/^https?:/i.test(written))) continue;
        const relative = !written.startsWith('/') && !SCHEME.test(written) && !written.startsWith('#');
        if (relative && localName(written.replace(/[?#].*$/s, ''), own)) continue;
        const url = new URL(written, `${origin}${pagePath}`);
        if (url.origin !== origin) continue;
        const path = decode(url.pathname);
        if (relative && (ref.what !== 'link' || /\.(?!md$)[a-z0-9]+$/i.test(path))) {
          const near = nearest(written, own);
          fail(ref, `is not a file in the post folder, e.g. ${near ?? (own.length ? own.join(', ') : 'add it beside the post')}`);
          continue;
        }
        const target = await site.at(path);
        if (!target) {
          if (!site.owns(path) || mayBePending(path, pending)) continue;
          const suggestion = await suggest(path, site, assets);
          fail(ref, `is no page or file of this site${relative ? ` (it leads to ${path})` : ''}${suggestion ? `, e.g. ${suggestion}` : ''}`);
          continue;
        }
        const fragment = decode(url.hash.slice(1));
        if (!fragment || target.kind !== 'post' || fragment === MAIN_ID) continue;
        const ids = target.slug === slug && target.lang === file.lang ? file.ids : idsOf(target.slug, target.lang);
        if (!ids || ids.includes(fragment)) continue;
        const near = nearest(fragment, ids) ?? ids[0];
        fail(ref, `names no heading of ${paths.post(scope, target.slug, target.lang)}${near ? `, e.g. #${near}` : ' (it has none)'}`);
      }
    }
  }
  return errors;
}

/** Could the path be a post's that did not load (its name, its media, or a term only it uses)? */
function mayBePending(path: string, pending: ReadonlySet<string>): boolean {
  if (pending.size === 0) return false;
  const segments = path.split('/').map((s) => s.replace(/\.md$/, ''));
  return segments.includes('category') || segments.includes('tag') || segments.some((s) => pending.has(s));
}

/** The path the author probably meant: its last segment replaced by the nearest post slug, term or file that exists there. */
async function suggest(path: string, site: SitePaths, assets: ReadonlyMap<string, readonly string[]>): Promise<string | undefined> {
  const segments = path.split('/');
  const last = segments.pop()!;
  const md = last.endsWith('.md') ? '.md' : '';
  const stem = md ? last.slice(0, -md.length) : last;
  const parent = segments.at(-1) ?? '';
  const candidates = parent === 'category' || parent === 'tag' ? site.terms(parent) : assets.get(parent) ?? site.slugs;
  const name = nearest(stem, candidates);
  const guess = name && [...segments, name + md].join('/');
  return guess && (await site.at(guess)) ? guess : undefined;
}
