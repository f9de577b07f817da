import { parseArgs } from 'node:util';

/**
 * `npm run build`'s arguments. `--listen` and `--upstream` belong to the `--target` before them
 * (`--target nginx --listen A --target caddy --listen B` gives each its own); given before any
 * `--target`, or after `--target all`, they apply to every named target that takes them. An option no
 * named target takes is an error, never ignored in silence.
 */
export const TARGETS = ['node', 'cloudflare', 'netlify', 'vercel', 'static', 'nginx', 'caddy', 'all'] as const;
type Setting = 'listen' | 'upstream';
/** The targets that take each setting. */
const TAKES: Record<Setting, readonly string[]> = { listen: ['static', 'nginx', 'caddy'], upstream: ['nginx', 'caddy'] };

export type TargetOptions = Partial<Record<Setting, string>>;
export interface BuildArgs {
  targets: string[];
  /** The settings given for each target (a target absent here keeps what it was written with). */
  options: Record<string, TargetOptions>;
  verbose: boolean;
  timings: boolean;
  drafts: boolean;
  /** A sharded build's arguments (scripts/build.ts checks how they go together): --shard K/N --out DIR, --merge DIR..., --shards N --jobs J. */
  shard?: string;
  out?: string;
  merge: boolean;
  shards?: string;
  jobs?: string;
  /** The shard folders of --merge. */
  positionals: string[];
}

export function buildArgs(args: string[]): BuildArgs {
  const { values, tokens, positionals } = parseArgs({
    args,
    tokens: true,
    allowPositionals: true,
    options: {
      target: { type: 'string', multiple: true }, verbose: { type: 'boolean', default: false }, timings: { type: 'boolean', default: false }, drafts: { type: 'boolean', default: false },
      listen: { type: 'string', multiple: true }, upstream: { type: 'string', multiple: true },
      shard: { type: 'string' }, out: { type: 'string' }, merge: { type: 'boolean', default: false }, shards: { type: 'string' }, jobs: { type: 'string' },
    },
  });
  const targets = values.target ?? ['node'];
  const unknown = targets.filter((t) => !TARGETS.includes(t as (typeof TARGETS)[number]));
  if (unknown.length > 0) throw new Error(`unknown --target ${unknown.join(', ')}; one of ${TARGETS.join(', ')}`);
  // The settings given after each --target (or before any: key ''), in order.
  const given = new Map<string, TargetOptions>();
  let current = '';
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'target') current = token.value!;
    if (token.name !== 'listen' && token.name !== 'upstream') continue;
    const setting = token.name;
    const own = given.get(current) ?? {};
    if (own[setting] !== undefined) throw new Error(`--${setting} is given twice ${current ? `for --target ${current}` : 'before any --target'}: give it once`);
    if (current && current !== 'all' && !TAKES[setting].includes(current)) throw new Error(`--${setting} ${token.value} follows --target ${current}, which takes no --${setting}: it is for --target ${TAKES[setting].join(' or ')}`);
    own[setting] = token.value!;
    given.set(current, own);
  }
  const named = targets.includes('all') ? TARGETS.filter((t) => t !== 'all') : targets;
  const options: Record<string, TargetOptions> = {};
  for (const target of named) {
    const merged: TargetOptions = {};
    for (const from of ['', 'all', target]) {
      for (const [setting, value] of Object.entries(given.get(from) ?? {}) as [Setting, string][]) if (TAKES[setting].includes(target)) merged[setting] = value;
    }
    if (Object.keys(merged).length > 0) options[target] = merged;
  }
  for (const from of ['', 'all']) {
    for (const setting of Object.keys(given.get(from) ?? {}) as Setting[]) {
      if (!named.some((t) => TAKES[setting].includes(t))) throw new Error(`--${setting} is for --target ${TAKES[setting].join(' or ')}, and none is named: e.g. --target ${TAKES[setting].at(-1)} --${setting} ${given.get(from)![setting]}`);
    }
  }
  return { targets, options, verbose: values.verbose, timings: values.timings, drafts: values.drafts, shard: values.shard, out: values.out, merge: values.merge, shards: values.shards, jobs: values.jobs, positionals };
}
