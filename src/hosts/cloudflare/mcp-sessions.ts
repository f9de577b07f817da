import { DurableObject } from 'cloudflare:workers';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { LegacySession, SessionBus } from '../../state/session-bus.ts';

const encoder = new TextEncoder();

/**
 * One legacy MCP SSE session's mailbox: the isolate holding the client's stream subscribes (a
 * streamed answer of one JSON message per line); a message POSTed to any isolate is delivered
 * here and passed on. No subscriber: no session (the POST gets its 404).
 */
export class McpSessions extends DurableObject {
  private out: ReadableStreamDefaultController<Uint8Array> | undefined;

  fetch(): Response {
    this.out?.close();
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.out = controller;
      },
      cancel: () => {
        this.out = undefined;
      },
    });
    return new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } });
  }

  deliver(message?: JSONRPCMessage): boolean {
    if (!this.out) return false;
    if (message) this.out.enqueue(encoder.encode(`${JSON.stringify(message)}\n`));
    return true;
  }
}

interface Mailboxes {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response>; deliver(message?: JSONRPCMessage): Promise<boolean> };
}

/**
 * Sessions across isolates: each session's messages go through its Durable Object, whichever
 * isolate they arrive at, to the isolate holding the stream.
 */
export function durableSessionBus(namespace: Mailboxes): SessionBus {
  const held = new Map<string, ReadableStreamDefaultReader<string>>();
  const mailbox = (id: string) => namespace.get(namespace.idFromName(id));
  async function listen(reader: ReadableStreamDefaultReader<string>, session: LegacySession) {
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        session.deliver(JSON.parse(buffer.slice(0, nl)) as JSONRPCMessage);
        buffer = buffer.slice(nl + 1);
      }
    }
  }
  return {
    held: () => held.size,
    // Resolves once subscribed, before the client is told where to POST.
    async open(id, session) {
      const response = await mailbox(id).fetch(new Request('https://mcp-session/subscribe'));
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      held.set(id, reader);
      void listen(reader, session).catch(() => {});
    },
    close(id) {
      void held.get(id)?.cancel().catch(() => {});
      held.delete(id);
    },
    deliver: (id, message) => (id ? mailbox(id).deliver(message) : Promise.resolve(false)),
  };
}
