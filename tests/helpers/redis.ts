import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's redis-server or valkey-server, if this machine has one. */
export function redisBinary(): string | undefined {
  return ['redis-server', 'valkey-server'].find((b) => spawnSync(b, ['--version']).status === 0);
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
  let child: ChildProcess | undefined;
  const up = async () => {
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis did not start:\n${out}`)), 10_000);
      child!.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (/Ready to accept connections/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  };
  const down = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  await up();
  return {
    url: `redis://127.0.0.1:${port}`,
    up,
    down,
    async stop() {
      await down();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
