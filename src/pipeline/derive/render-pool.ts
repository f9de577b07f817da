import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { render, type RenderContext, type Rendered } from './render.ts';

interface Job {
  format: 'md' | 'html';
  body: string;
  ctx: RenderContext;
}

/** In a pool thread: one render. */
export default function renderJob({ format, body, ctx }: Job): Rendered {
  return render(format, body, ctx);
}

/**
 * Rendering (remark/rehype, the build's heaviest step) on worker threads, one per core: the bundle
 * step asks for renders of several posts at once and gets them back in any order. With one core,
 * or FOLIO_RENDER_THREADS=1, it renders in this thread.
 */
export function renderPool(threads = Number(process.env.FOLIO_RENDER_THREADS) || availableParallelism()) {
  if (threads <= 1) return { render: async (format: Job['format'], body: string, ctx: RenderContext) => render(format, body, ctx), close: async () => {} };
  // Started on the first render: a build whose renders are all cached starts none.
  let pool: Piscina<Job, Rendered> | undefined;
  return {
    render: (format: Job['format'], body: string, ctx: RenderContext): Promise<Rendered> =>
      (pool ??= new Piscina({ filename: import.meta.url, minThreads: threads, maxThreads: threads })).run({ format, body, ctx }),
    close: async () => pool?.destroy(),
  };
}

export type RenderPool = ReturnType<typeof renderPool>;
