import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BuildLayout } from '../../artefact/roots.ts';
import { readManifest } from '../../artefact/client-files.ts';
import { FRONT_ROOT, writeFrontCopy } from './front-copy.ts';
import { frontFiles, frontRules, type FrontOptions, type FrontRules } from './front-files.ts';
import { nginxConf } from './nginx.ts';
import { caddyfile } from './caddy.ts';

export const FRONT_DEFAULTS: FrontOptions = { listen: '127.0.0.1:8080', upstream: '127.0.0.1:4321' };

/** The options a front was last written with, kept beside it so later builds keep them. */
const OPTIONS_FILE = 'front.json';

export const FRONTS = {
  nginx: { config: 'nginx.conf', write: (rules: FrontRules, options: FrontOptions) => nginxConf(rules, options), run: 'nginx -p dist/nginx -c nginx.conf' },
  caddy: { config: 'Caddyfile', write: (rules: FrontRules, options: FrontOptions, out: string) => caddyfile(rules, options, resolve(out, FRONT_ROOT)), run: 'caddy run --config dist/caddy/Caddyfile --adapter caddyfile' },
} as const;
export type FrontName = keyof typeof FRONTS;

/**
 * A target's addresses (`--listen`, `--upstream`): those given, else what its folder was written with
 * before (`front.json` in `dir`), else the defaults; each checked as host:port.
 */
export async function keptOptions<T extends { [K in keyof T]: string }>(dir: string, given: Partial<T>, defaults: T): Promise<T> {
  const before = JSON.parse(await readFile(join(dir, OPTIONS_FILE), 'utf8').catch(() => '{}')) as Partial<T>;
  const keys = Object.keys(defaults);
  const pick = (from: Partial<T>) => Object.fromEntries(Object.entries(from).filter(([k, v]) => keys.includes(k) && v !== undefined));
  const options = { ...defaults, ...pick(before), ...pick(given) } as T;
  for (const [name, value] of Object.entries(options) as [string, string][]) if (!/^[^\s:;{}]*:\d{1,5}$/.test(value) && !/^\[[0-9a-f:.]+\]:\d{1,5}$/i.test(value)) throw new Error(`--${name} ${value}: give host:port, e.g. ${defaults[name as keyof T]}`);
  return options;
}

/** Keeps a target's addresses beside it, for the builds after this one. */
export const keepOptions = (dir: string, options: object) => writeFile(join(dir, OPTIONS_FILE), `${JSON.stringify(options)}\n`);

/** `--listen`/`--upstream` when given, else what the front was written with before, else the defaults. */
export const frontOptions = (out: string, given: Partial<FrontOptions>): Promise<FrontOptions> => keptOptions<FrontOptions>(out, given, FRONT_DEFAULTS);

/** Whether a front was written into `out` before (a build then keeps it up to date). */
export const frontWritten = (out: string) => existsSync(join(out, OPTIONS_FILE));

/**
 * A front's folder: its configuration, and the copy of the build's static files the `site` link
 * points to (switched when this build goes live; the configuration is written again only when it changes).
 */
export async function writeFront(name: FrontName, layout: BuildLayout, out: string, given: Partial<FrontOptions>): Promise<string> {
  const options = await frontOptions(out, given);
  const manifest = await readManifest(layout);
  const files = frontFiles(manifest);
  const rules = frontRules(files);
  for (const dir of ['logs', 'tmp']) await mkdir(join(out, dir), { recursive: true });
  const placed = await writeFrontCopy(layout, manifest, files, out);
  const front = FRONTS[name];
  const config = front.write(rules, options, out);
  const path = join(out, front.config);
  const changed = (await readFile(path, 'utf8').catch(() => '')) !== config;
  if (changed) await writeFile(path, config);
  await keepOptions(out, options);
  return `${name}: ${out}: ${files.length} URLs served by ${name} (${placed} files with their br/gzip), the rest passed to ${options.upstream}; listens on ${options.listen}; ${changed ? `${front.config} written (reload ${name} if it runs)` : `${front.config} unchanged (no reload)`}; run: ${front.run}`;
}
