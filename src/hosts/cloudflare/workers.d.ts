// The few Workers runtime types Folio's worker uses (the full set is @cloudflare/workers-types).
declare module 'cloudflare:workers' {
  export abstract class DurableObject<Env = unknown> {
    protected ctx: DurableObjectState;
    protected env: Env;
    constructor(ctx: DurableObjectState, env: Env);
  }
}

interface SqlCursor {
  toArray(): Record<string, unknown>[];
}

interface DurableObjectState {
  storage: { sql: { exec(query: string, ...bindings: unknown[]): SqlCursor }; setAlarm(scheduledTime: number): Promise<void> };
  blockConcurrencyWhile<T>(run: () => Promise<T>): Promise<T>;
}

/** Calls to a Durable Object's methods (RPC): each answers later. */
type DurableObjectStub<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

interface DurableObjectNamespace<T = unknown> {
  idFromName(name: string): unknown;
  get(id: unknown): DurableObjectStub<T>;
}

interface Fetcher {
  fetch(request: Request): Promise<Response>;
}

interface D1PreparedStatement {
  bind(...values: unknown[]): D1PreparedStatement;
  all<T = Record<string, unknown>>(): Promise<{ results: T[] }>;
  run(): Promise<unknown>;
}

interface D1Database {
  prepare(sql: string): D1PreparedStatement;
  batch(statements: D1PreparedStatement[]): Promise<unknown[]>;
}

interface R2Bucket {
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
}
