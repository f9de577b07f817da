import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** An open legacy MCP SSE session: where messages POSTed for it go. */
export interface LegacySession {
  deliver(message: JSONRPCMessage): void;
}

/**
 * Where legacy MCP SSE sessions live: the stream is held by one worker, and a message POSTed to
 * any worker must reach it.
 */
export interface SessionBus {
  /** Sessions this worker holds (each worker caps its own). */
  held(): number;
  /** Settled once messages POSTed anywhere can reach the session. */
  open(id: string, session: LegacySession): void | Promise<void>;
  close(id: string): void;
  /** Delivers to whichever worker holds the session (without a message: only asks); false when none does. */
  deliver(id: string, message?: JSONRPCMessage): Promise<boolean>;
}

export function localSessionBus(): SessionBus {
  const sessions = new Map<string, LegacySession>();
  return {
    held: () => sessions.size,
    open: (id, session) => void sessions.set(id, session),
    close: (id) => void sessions.delete(id),
    async deliver(id, message) {
      const session = sessions.get(id);
      if (message) session?.deliver(message);
      return session !== undefined;
    },
  };
}

interface Ask {
  kind: 'ask';
  ask: string;
  id: string;
  message?: JSONRPCMessage;
}
interface Answer {
  kind: 'answer';
  ask: string;
  found: boolean;
}

/**
 * Sessions across the worker threads of one server: a message for a session held elsewhere is
 * broadcast; the holder delivers it, every other worker says it does not have it.
 */
export function threadSessionBus(channelName: string, workers: number, timeoutMs = 2000): SessionBus & { stop(): void } {
  const local = localSessionBus();
  const waiting = new Map<string, (found: boolean) => void>();
  const channel = new BroadcastChannel(channelName);
  (channel as BroadcastChannel & { unref?: () => void }).unref?.();
  channel.onmessage = async (event: MessageEvent<Ask | Answer>) => {
    const m = event.data;
    if (m.kind === 'ask') channel.postMessage({ kind: 'answer', ask: m.ask, found: await local.deliver(m.id, m.message) } satisfies Answer);
    else waiting.get(m.ask)?.(m.found);
  };
  return {
    held: local.held,
    open: local.open,
    close: local.close,
    async deliver(id, message) {
      if (await local.deliver(id, message)) return true;
      if (workers < 2) return false;
      const ask = crypto.randomUUID();
      return new Promise<boolean>((resolve) => {
        let answers = 0;
        const done = (found: boolean) => {
          clearTimeout(timer);
          waiting.delete(ask);
          resolve(found);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        waiting.set(ask, (found) => {
          if (found) done(true);
          else if (++answers >= workers - 1) done(false);
        });
        channel.postMessage({ kind: 'ask', ask, id, message } satisfies Ask);
      });
    },
    stop: () => channel.close(),
  };
}
