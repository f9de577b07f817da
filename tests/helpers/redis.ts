import { spawnSync } from 'node:child_process';
import { serviceProcess } from './service-process.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's redis-server or valkey-server, if this machine has one. */
export function redisBinary(): string | undefined {
  return ['redis-server', 'valkey-server'].find((b) => spawnSync(b, ['--version'], { timeout: 10_000 }).status === 0);
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A real Redis on a loopback port, in a temp dir, that can be stopped and started again on that port. */
export async function startRedis(binary: string) {
  const dir = await mkdtemp(join(tmpdir(), 'folio-redis-'));
  const port = await freePort();
  const { up, down, signal } = serviceProcess(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {}, /Ready to accept connections/);
  await up();
  return {
    url: `redis://127.0.0.1:${port}`,
    up,
    down,
    /** A frozen store: the socket stays open and nothing answers (as a partition), until thaw. */
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    async stop() {
      signal('SIGCONT');
      await down();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
