import { spawnSync } from 'node:child_process';
import { serviceProcess } from './service-process.ts';
import { chownSync, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis.ts';

/** Debian's PostgreSQL server binaries (postgresql package), if this machine has them. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  const bin = version && join(root, version, 'bin');
  return bin && existsSync(join(bin, 'initdb')) ? bin : undefined;
}

/**
 * A real PostgreSQL cluster in a temp dir on a loopback port (trust auth). PostgreSQL refuses to
 * run as root, so as root it runs as the `postgres` user the Debian package creates.
 */
export async function startPostgres(bin: string) {
  const dir = await mkdtemp(join(tmpdir(), 'folio-pg-'));
  // As root: the postgres user's ids, for the folder and for the processes.
  const ids = userInfo().uid === 0 ? { uid: Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout), gid: Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout) } : {};
  if (ids.uid !== undefined) chownSync(dir, ids.uid, ids.gid!);
  const data = join(dir, 'data');
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '--auth=trust', '-U', 'postgres', '--no-sync'], { encoding: 'utf8', cwd: dir, timeout: 120_000, killSignal: 'SIGKILL', ...ids });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  // SIGINT is PostgreSQL's fast shutdown: open sessions are cut, as when the database goes away.
  const { up, down } = serviceProcess(
    join(bin, 'postgres'),
    ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    { cwd: dir, ...ids },
    /ready to accept connections/,
    'SIGINT',
  );
  await up();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    up,
    down,
    async stop() {
      await down();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
