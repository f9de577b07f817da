import { spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PUBLISH } from '../../src/artefact/roots.ts';
import { passOn } from './child-output.ts';
import { spawnGroup, startupDeadline, stopGroup } from './process-group.ts';

/** The fronts the e2e suites can run behind (`FOLIO_TEST_FRONT`): nginx or Caddy before `npm run serve`. */
export type Front = 'nginx' | 'caddy';

export const FRONT: Front | undefined = process.env.FOLIO_TEST_FRONT === 'nginx' || process.env.FOLIO_TEST_FRONT === 'caddy' ? process.env.FOLIO_TEST_FRONT : undefined;

/** The e2e files `npm run test:nginx` and `test:caddy` (and tests/run.ts) run with FOLIO_TEST_FRONT set. */
export const FRONT_SUITES = ['rest', 'negotiation', 'policies', 'feeds', 'discovery'].map((s) => `tests/e2e/${s}.test.ts`);

const CONFIG: Record<Front, string> = { nginx: 'nginx.conf', caddy: 'Caddyfile' };

/** Why a front cannot run here (its program or its build output is absent), or undefined. */
export function frontAbsent(front: Front): string | undefined {
  if (spawnSync(front, ['-v'], { stdio: 'ignore', timeout: 10_000 }).error) return `${front} is not installed (apt-get install -y ${front === 'nginx' ? 'nginx libnginx-mod-http-brotli-static' : 'caddy'})`;
  if (!existsSync(join(PUBLISH.out, front, CONFIG[front]))) return `${join(PUBLISH.out, front)} is absent: run \`npm run build -- --target ${front}\``;
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

export interface RunningFront {
  url: string;
  stop(): Promise<void>;
}

/**
 * The configuration the build wrote for `front`, run from a temporary folder on a free loopback port
 * in front of `upstream` (only its listen and upstream addresses changed), serving the build's
 * `site` link as it is, or the link `site` names.
 */
export async function startFront(front: Front, upstream: string, site?: string): Promise<RunningFront> {
  const out = resolve(PUBLISH.out, front);
  const root = site ?? join(out, 'site');
  const options = JSON.parse(await readFile(join(out, 'front.json'), 'utf8')) as { listen: string; upstream: string };
  const port = await freePort();
  const listen = `127.0.0.1:${port}`;
  const dir = await mkdtemp(join(tmpdir(), `folio-${front}-`));
  // nginx started as root reads files as its workers' user.
  await chmod(dir, 0o755);
  let config = (await readFile(join(out, CONFIG[front]), 'utf8')).replaceAll(options.upstream, new URL(upstream).host);
  let args: string[];
  if (front === 'nginx') {
    config = config.replace(`listen ${options.listen} `, `listen ${listen} `);
    for (const d of ['logs', 'tmp']) await mkdir(join(dir, d));
    await symlink(root, join(dir, 'site'));
    args = ['-p', dir, '-c', 'nginx.conf', '-g', 'daemon off;'];
  } else {
    config = config.replace(`http://${options.listen} {`, `http://${listen} {`).replace(`root * ${join(out, 'site')}`, `root * ${root}`);
    args = ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'];
  }
  await writeFile(join(dir, CONFIG[front]), config);
  const child: ChildProcess = spawnGroup(front, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir } });
  passOn(child.stdout!, `${front} ${child.pid}`);
  passOn(child.stderr!, `${front} ${child.pid}`);
  const url = `http://${listen}`;
  const stop = async () => {
    await stopGroup(child);
    await rm(dir, { recursive: true, force: true });
  };
  const started = Date.now();
  // Both answer within a second on a quiet machine.
  const deadline = startupDeadline(30_000);
  for (;;) {
    const failed =
      child.exitCode !== null
        ? `${front} exited with ${child.exitCode}${front === 'nginx' ? `: ${await readFile(join(dir, 'logs', 'error.log'), 'utf8').catch(() => '')}` : ''}`
        : Date.now() - started > deadline
          ? `${front} did not start on ${listen} within ${deadline / 1000} s`
          : undefined;
    if (failed) {
      await stop();
      throw new Error(failed);
    }
    const up = await fetch(`${url}/favicon.ico`, { method: 'HEAD', signal: AbortSignal.timeout(5_000) }).then(() => true, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, stop };
}

/**
 * TRUST_PROXY for Node behind the front: one more hop than a test asks for (the front appends the
 * client's address to X-Forwarded-For), or the last entry (the client the front saw) when it asks none.
 */
export function behindFront(trust: string | undefined): string {
  if (trust === undefined || trust === '' || trust === '0' || trust === 'false') return '1';
  if (trust === 'true') return '2';
  if (/^\d+$/.test(trust)) return String(Number(trust) + 1);
  return `${trust},127.0.0.1`;
}
