import { signPayload } from './signing.ts';
import { FORMATS } from '../src/core/formats.ts';

/**
 * Server-Sent Events over a Web stream (Hono's streamSSE). `eventStream` frames events with an
 * `id:` and ends the work when the client leaves; `sseResponse` adds the signed JSON payloads
 * and the closing `error` event of Folio's search and /ask streams.
 */
export interface FrameWriter {
  write(event: string, data: string): Promise<void>;
  signal: AbortSignal;
}

export interface EventSender {
  send(event: string, data: Record<string, unknown>): Promise<void>;
  signal: AbortSignal;
}

/** Open streams, counted wherever the host keeps them (shared across workers). */
export interface StreamCounter {
  opened(): void;
  closed(): void;
  count(): number | Promise<number>;
}

/** A counter for one process alone. */
export function localStreamCounter(): StreamCounter {
  let active = 0;
  return { opened: () => void active++, closed: () => void active--, count: () => active };
}

const encoder = new TextEncoder();

export function eventStream(request: Request, counter: StreamCounter, run: (out: FrameWriter) => Promise<void>): Response {
  const abort = new AbortController();
  request.signal.addEventListener('abort', () => abort.abort(), { once: true });
  let id = 0;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      counter.opened();
      const write = async (event: string, data: string) => {
        if (abort.signal.aborted) throw abort.signal.reason;
        if (/[\r\n]/.test(event) || /[\r\n]/.test(data)) throw new Error('event names and data cannot contain line breaks');
        id++;
        controller.enqueue(encoder.encode(`id: ${id}\nevent: ${event}\ndata: ${data}\n\n`));
        // Yield so a disconnect is noticed between events.
        await new Promise((resolve) => setTimeout(resolve, 0));
      };
      try {
        await run({ write, signal: abort.signal });
      } finally {
        counter.closed();
        try {
          controller.close();
        } catch {
          // already cancelled by the client
        }
      }
    },
    cancel() {
      abort.abort();
    },
  });
  return new Response(stream, {
    headers: { 'content-type': FORMATS.eventStream.contentType, 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  });
}

export function sseResponse(request: Request, secret: string, counter: StreamCounter, run: (out: EventSender) => Promise<void>): Response {
  return eventStream(request, counter, async ({ write, signal }) => {
    const send = async (event: string, data: Record<string, unknown>) => write(event, JSON.stringify(await signPayload(data, secret)));
    try {
      await run({ send, signal });
    } catch (e) {
      if (!signal.aborted) await send('error', { message: e instanceof Error ? e.message : String(e) }).catch(() => {});
    }
  });
}
