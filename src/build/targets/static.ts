import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from '../../publish/manifest.ts';
import type { BuildLayout } from '../roots.ts';
import { mirror } from './files.ts';

/**
 * Rewrites (status 200) from each published URL to the file holding its default answer, where a
 * host would not find it by itself (`/api/posts` is `/api/posts/index.json`). Answers to a query
 * have a path form of their own, `{path}/_query/{canonical query}.json`, needing no rule.
 */
export function rewrites(manifest: Manifest): string[] {
  const rules: string[] = [];
  for (const [path, entry] of Object.entries(manifest.paths)) {
    const answer = entry.answers[''];
    if (answer === undefined) continue;
    const i = typeof answer === 'number' ? answer : answer[entry.offers![0]!];
    const file = i === undefined ? undefined : manifest.files[i]!.file;
    if (!file || file === path || file === `${path.replace(/\/$/, '')}/index.html`) continue;
    rules.push(`${path} ${file} 200`);
  }
  return rules.sort();
}

/**
 * A host with no functions (GitHub Pages, S3, Netlify or Cloudflare Pages without functions):
 * the static artefact as it is, with `_redirects` also rewriting each published URL to its file.
 */
export async function writeStatic(layout: BuildLayout, outDir: string): Promise<string> {
  await rm(outDir, { recursive: true, force: true });
  const copied = await mirror(layout.client, outDir, (rel) => rel === '_redirects');
  const manifest = JSON.parse(await readFile(layout.manifest, 'utf8')) as Manifest;
  const rules = rewrites(manifest);
  const redirects = await readFile(join(layout.client, '_redirects'), 'utf8');
  await writeFile(join(outDir, '_redirects'), `${redirects}${rules.join('\n')}\n`);
  return `static: ${outDir}: ${copied.files + 1} files, ${rules.length} rewrites in _redirects`;
}
