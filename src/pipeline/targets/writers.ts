import { join } from 'node:path';
import { PUBLISH, ROOTS, type BuildLayout } from '../../artefact/roots.ts';
import { createHash } from 'node:crypto';
import type { TargetOptions } from './target-args.ts';

// Each writer's code is loaded when it writes (scripts/write-target.ts, a process per target): the build's
// own process names the targets and their folders only, and loading every writer there took 87 MB and 0.6 s.

/** The environment the Workers project is written by (cloudflareOptions in ./cloudflare.ts). */
export const CLOUDFLARE_ENV = ['FOLIO_WORKERS_NEGOTIATE', 'FOLIO_WORKERS_MAX_ASSETS'] as const;

/** The environment the Netlify project is written by (rateLimitDeclaration in ./netlify.ts). */
export const NETLIFY_ENV = ['UPSTASH_REDIS_REST_URL'] as const;

/** A host project: the folder it is written into beside dist/current, and how (its one-line report). */
export interface TargetWriter {
  out: string;
  write: (layout: BuildLayout) => Promise<string>;
  /** The environment its writer reads besides the build: the build records it (targetSettings), and writes the project again when it changed. */
  env?: readonly string[];
}

/** Each host project, written from a build's folder into its own beside dist/current (`options`: --listen, --upstream by target). */
export function targetWriters(options: Record<string, TargetOptions>): Record<string, TargetWriter> {
  const roots = ROOTS.map((r) => r.name);
  return {
    cloudflare: {
      out: join(PUBLISH.out, 'cloudflare'),
      write: async (layout) => {
        const { describeCloudflare, writeCloudflare } = await import('./cloudflare.ts');
        return describeCloudflare(await writeCloudflare(layout, roots, join(PUBLISH.out, 'cloudflare')));
      },
      env: CLOUDFLARE_ENV,
    },
    netlify: { out: join(PUBLISH.out, 'netlify'), write: async (layout) => (await import('./netlify.ts')).writeNetlify(layout, roots, join(PUBLISH.out, 'netlify')), env: NETLIFY_ENV },
    vercel: { out: join(PUBLISH.out, 'vercel'), write: async (layout) => (await import('./vercel.ts')).writeVercel(layout, roots, join(PUBLISH.out, 'vercel', '.vercel', 'output')) },
    static: { out: join(PUBLISH.out, 'static'), write: async (layout) => (await import('./static.ts')).writeStatic(layout, join(PUBLISH.out, 'static'), { listen: options.static?.listen }) },
    nginx: { out: join(PUBLISH.out, 'nginx'), write: async (layout) => (await import('./front.ts')).writeFront('nginx', layout, join(PUBLISH.out, 'nginx'), options.nginx ?? {}) },
    caddy: { out: join(PUBLISH.out, 'caddy'), write: async (layout) => (await import('./front.ts')).writeFront('caddy', layout, join(PUBLISH.out, 'caddy'), options.caddy ?? {}) },
  };
}

/**
 * A digest of the settings a target's project is written with besides the build (its writer's `env`),
 * recorded by target in the build's inputs.json: a build with nothing else changed writes the project
 * again when they differ. A digest, not the values: some are a store's address.
 */
export const targetSettings = (writer: TargetWriter, env: NodeJS.ProcessEnv = process.env): string =>
  createHash('sha256').update(JSON.stringify((writer.env ?? []).map((name) => [name, env[name] ?? null]))).digest('hex');
