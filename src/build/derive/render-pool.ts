import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { render, type RenderContext, type Rendered } from './render.ts';

type Job = { id: number; format: 'md' | 'html'; body: string; ctx: RenderContext };
type Reply = { id: number; rendered?: Rendered; error?: string };

/**
 * Rendering (remark/rehype, the build's heaviest step) on worker threads, one per core: the bundle
 * step asks for renders of several posts at once and gets them back in any order. With one core,
 * or FOLIO_RENDER_THREADS=1, it renders in this thread.
 */
export function renderPool(threads = Number(process.env.FOLIO_RENDER_THREADS) || availableParallelism()) {
  if (threads <= 1) return { render: async (format: Job['format'], body: string, ctx: RenderContext) => render(format, body, ctx), close: async () => {} };
  const waiting = new Map<number, { resolve: (r: Rendered) => void; reject: (e: Error) => void }>();
  const idle: Worker[] = [];
  const queue: Job[] = [];
  let next = 0;
  const send = (worker: Worker) => {
    const job = queue.shift();
    if (job) worker.postMessage(job);
    else idle.push(worker);
  };
  // Started on the first render: a build whose renders are all cached starts none.
  let workers: Worker[] = [];
  const start = () => Array.from({ length: threads }, () => {
    const worker = new Worker(new URL(import.meta.url));
    worker.on('message', (reply: Reply) => {
      const w = waiting.get(reply.id)!;
      waiting.delete(reply.id);
      if (reply.rendered) w.resolve(reply.rendered);
      else w.reject(new Error(reply.error));
      send(worker);
    });
    worker.on('error', (e) => {
      for (const w of waiting.values()) w.reject(e);
      waiting.clear();
    });
    idle.push(worker);
    return worker;
  });
  return {
    render(format: Job['format'], body: string, ctx: RenderContext): Promise<Rendered> {
      if (workers.length === 0) workers = start();
      return new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        queue.push({ id, format, body, ctx });
        const worker = idle.pop();
        if (worker) send(worker);
      });
    },
    close: () => Promise.all(workers.map((w) => w.terminate())).then(() => undefined),
  };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', (job: Job) => {
    try {
      port.postMessage({ id: job.id, rendered: render(job.format, job.body, job.ctx) } satisfies Reply);
    } catch (e) {
      port.postMessage({ id: job.id, error: (e as Error).message } satisfies Reply);
    }
  });
}
