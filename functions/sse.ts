import { signPayload } from './signing.ts';
import { FLOW_LIMITS, RETRY_MS, type FlowLimits } from '../src/core/limits.ts';
import { FORMATS } from '../src/core/formats.ts';
import { json } from './http.ts';

/**
 * Server-Sent Events over a Web stream (Hono's streamSSE). `eventStream` frames events with an
 * `id:`, tells EventSource how long to wait before reconnecting (`retry:`), resumes after the
 * client's `Last-Event-ID` without repeating what it has, ends the work when the client leaves and
 * drops a client that stops reading; `sseResponse` adds the signed JSON payloads, the closing
 * `error` event of Folio's search and /ask streams, and the 204 that ends a finished stream.
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

/** The event id a reconnecting EventSource sends (ids are 1, 2, 3... in a stream); 0 when none. */
export function lastEventId(request: Request): number {
  const raw = request.headers.get('last-event-id')?.trim() ?? '';
  return /^[0-9]{1,9}$/.test(raw) ? Number(raw) : 0;
}

export function eventStream(request: Request, counter: StreamCounter, run: (out: FrameWriter) => Promise<void>, limits: FlowLimits = FLOW_LIMITS): Response {
  const abort = new AbortController();
  request.signal.addEventListener('abort', () => abort.abort(), { once: true });
  // Events up to the client's Last-Event-ID were delivered before it reconnected: they are not sent again.
  const resumeAfter = lastEventId(request);
  let id = 0;
  let pulled: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      counter.opened();
      /** Waits while the client's queue is full; a client that does not read within the bound is dropped. */
      const drained = async () => {
        if ((controller.desiredSize ?? 1) > 0) return;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const stalled = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), limits.stalledMs)));
        const read = new Promise<boolean>((resolve) => (pulled = () => resolve(false)));
        const gaveUp = await Promise.race([stalled, read]);
        clearTimeout(timer);
        if (gaveUp) abort.abort(new Error(`the client read nothing for ${limits.stalledMs} ms`));
      };
      const write = async (event: string, data: string) => {
        if (abort.signal.aborted) throw abort.signal.reason;
        if (/[\r\n]/.test(event) || /[\r\n]/.test(data)) throw new Error('event names and data cannot contain line breaks');
        id++;
        if (id <= resumeAfter) return;
        const retry = id === resumeAfter + 1 ? `retry: ${RETRY_MS}\n` : '';
        controller.enqueue(encoder.encode(`${retry}id: ${id}\nevent: ${event}\ndata: ${data}\n\n`));
        await drained();
        // Yield so a disconnect is noticed between events.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (abort.signal.aborted) throw abort.signal.reason;
      };
      // Not awaited: the stream calls pull (a read made room) only once start has returned.
      void run({ write, signal: abort.signal }).then(
        () => finish(() => controller.close()),
        (e: unknown) => finish(() => controller.error(e)),
      );
      function finish(end: () => void) {
        counter.closed();
        try {
          end();
        } catch {
          // already cancelled by the client
        }
      }
    },
    pull() {
      pulled?.();
    },
    cancel() {
      abort.abort();
    },
  }, new ByteLengthQueuingStrategy({ highWaterMark: limits.queuedBytes }));
  return new Response(stream, {
    headers: { 'content-type': FORMATS.eventStream.contentType, 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  });
}

/**
 * `events`: how many events `run` sends when it completes. A client reconnecting with the last of
 * them as its Last-Event-ID has the whole stream: it gets 204, which tells EventSource to stop
 * reconnecting, and the search is not run again.
 */
/** What a stream answers on a host given no signing key (the host logged why once, when it loaded). */
export const UNSIGNED_STREAM_ERROR = 'Event streams are unavailable: this host has no EVENT_SIGNING_SECRET to sign their events with. Ask without the stream (Accept: application/json, or streaming=false).';

/** The one line a host logs when it has no key its instances share (every other answer is served). */
export const UNSIGNED_STREAMS_LOG = 'EVENT_SIGNING_SECRET is not set: search and /ask streams answer 503 until the same secret is set on every instance; everything else is served.';

export function sseResponse(request: Request, secret: string | undefined, counter: StreamCounter, run: (out: EventSender) => Promise<void>, events = Infinity): Response {
  if (!secret) return json({ error: UNSIGNED_STREAM_ERROR }, 503, { 'cache-control': 'no-store' });
  if (lastEventId(request) >= events) return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  return eventStream(request, counter, async ({ write, signal }) => {
    const send = async (event: string, data: Record<string, unknown>) => write(event, JSON.stringify(await signPayload(data, secret)));
    try {
      await run({ send, signal });
    } catch (e) {
      if (!signal.aborted) await send('error', { message: e instanceof Error ? e.message : String(e) }).catch(() => {});
    }
  });
}
