import { signPayload } from './signing.ts';
import { FORMATS } from '../src/core/formats.ts';

/**
 * Server-Sent Events over a Web stream (Hono's streamSSE): every event has an `id:`, JSON data
 * signed with the root's secret; a failure ends with an `error` event; a client that leaves
 * aborts the work through `signal`.
 */
export interface EventSender {
  send(event: string, data: Record<string, unknown>): Promise<void>;
  signal: AbortSignal;
}

export interface StreamCounter {
  active: number;
}

const encoder = new TextEncoder();

export function sseResponse(request: Request, secret: string, counter: StreamCounter, run: (out: EventSender) => Promise<void>): Response {
  const abort = new AbortController();
  request.signal.addEventListener('abort', () => abort.abort(), { once: true });
  let id = 0;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      counter.active++;
      const send = async (event: string, data: Record<string, unknown>) => {
        if (abort.signal.aborted) throw abort.signal.reason;
        if (/[\r\n]/.test(event)) throw new Error('event names cannot contain line breaks');
        const signed = await signPayload(data, secret);
        id++;
        controller.enqueue(encoder.encode(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(signed)}\n\n`));
        // Yield so a disconnect is noticed between events.
        await new Promise((resolve) => setTimeout(resolve, 0));
      };
      try {
        await run({ send, signal: abort.signal });
      } catch (e) {
        if (!abort.signal.aborted) {
          await send('error', { message: e instanceof Error ? e.message : String(e) }).catch(() => {});
        }
      } finally {
        counter.active--;
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
