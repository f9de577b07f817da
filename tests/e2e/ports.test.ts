// Ports that agree (issue 41): `npm run chain` tells `npm run pay` and `npm run inbox` where it serves
// and stores; a build that would re-point a running server's absolute URLs says so; `--listen` and
// `--upstream` belong to their own --target and are always honoured. The builds here run over a
// publish folder of their own that borrows the live build (its `current` and builds are links to
// dist's), so nothing of dist/ changes and a build with nothing new takes a second.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { CACHE_DIR, PUBLISH, ROOTS } from '../../src/artefact/roots.ts';
import { INPUTS_FILE, inputFingerprint } from '../../src/pipeline/reuse/fingerprint.ts';
import { fileDigests } from '../../src/pipeline/reuse/file-digests.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = process.execPath;
// Generous: the machine is shared and loaded (a build with nothing new takes about a second alone).
const RUN_DEADLINE_MS = 300_000;
const START_DEADLINE_MS = 180_000;
const children = new Set<ChildProcess>();

/** Ends a child's whole process group (it may have started others), and waits for it. */
async function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  try {
    process.kill(-child.pid!, signal);
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, 20_000);
  await exited;
  clearTimeout(timer);
}

/** Starts a script in a process group of its own; its output so far is always at hand. */
function launch(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(NODE, ['--disable-warning=ExperimentalWarning', script, ...args], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return {
    child,
    output: () => ({ stdout, stderr }),
    /** Resolves with the match once the output shows `pattern`; fails (the group killed) by the deadline or at exit. */
    waitFor(pattern: RegExp, deadlineMs = START_DEADLINE_MS): Promise<RegExpExecArray> {
      return new Promise((resolvePromise, reject) => {
        const look = () => {
          const m = pattern.exec(stdout + stderr);
          if (m) finish(() => resolvePromise(m));
        };
        const fail = (why: string) => finish(() => reject(new Error(`${script} ${args.join(' ')}: ${why}\n${stdout}\n${stderr}`)));
        const timer = setTimeout(() => void stopGroup(child, 'SIGKILL').then(() => fail(`no ${pattern} within ${deadlineMs / 1000} s`)), deadlineMs);
        const onExit = () => setImmediate(() => (look(), fail(`exited (${child.exitCode ?? child.signalCode}) before ${pattern}`)));
        const finish = (then: () => void) => {
          clearTimeout(timer);
          child.stdout!.off('data', look);
          child.stderr!.off('data', look);
          child.off('exit', onExit);
          then();
        };
        child.stdout!.on('data', look);
        child.stderr!.on('data', look);
        child.once('exit', onExit);
        look();
      });
    },
  };
}

/** Runs a script to its end (killed with its group past the deadline). */
async function run(script: string, args: string[], env: NodeJS.ProcessEnv, deadlineMs = RUN_DEADLINE_MS) {
  const started = launch(script, args, env);
  const timer = setTimeout(() => void stopGroup(started.child, 'SIGKILL'), deadlineMs);
  const [code] = (await once(started.child, 'exit')) as [number | null];
  clearTimeout(timer);
  await new Promise((r) => setImmediate(r));
  return { code, ...started.output() };
}

/** The environment of the children: this one's, without the addresses a test sets itself. */
function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, WORKERS: '1' };
  for (const name of ['PORT', 'FOLIO_URL', 'PAYER_KEY', 'RPC_URL', 'CONTACT_DB', 'SANDBOX_CONTACT_DB', 'FOLIO_OUT', 'FOLIO_CHAIN_DIR', 'CHAIN_PORT']) delete env[name];
  return { ...env, ...extra };
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

let out = '';
/** Why the borrowed build cannot stand for this code and content (a build over links must never go live), or false. */
let stale: string | false = false;
before(async () => {
  // The live build, borrowed: `current` and every build folder (the live one may hold files of earlier ones) as links.
  const live = await readlink(join(PUBLISH.out, 'current')).catch(() => undefined);
  assert.ok(live, `${PUBLISH.current} is absent: run npm run build first`);
  const inputs = JSON.parse(await readFile(join(PUBLISH.out, live, INPUTS_FILE), 'utf8')) as { fingerprint: string };
  const { fingerprint } = await inputFingerprint(ROOTS.map((r) => r.contentDir), fileDigests(CACHE_DIR), buildEnv());
  if (inputs.fingerprint !== fingerprint) stale = `${PUBLISH.current} is not the build of this code and content: run npm run build first`;
  out = await mkdtemp(join(ROOT, '.folio-cache', 'ports-test-'));
  await mkdir(join(out, 'builds'));
  for (const id of await readdir(resolve(PUBLISH.builds))) await symlink(resolve(PUBLISH.builds, id), join(out, 'builds', id));
  await symlink(live, join(out, 'current'));
});

after(async () => {
  await Promise.all([...children].map((c) => stopGroup(c, 'SIGKILL')));
  if (out) await rm(out, { recursive: true, force: true });
});

/** A build's environment: this one's (the live build's settings), over the borrowed folder. */
const buildEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, FOLIO_OUT: out, ...extra });
const build = (...args: string[]) => run('scripts/build.ts', args, buildEnv());
const front = (name: 'nginx' | 'caddy') => JSON.parse(readFileSync(join(out, name, 'front.json'), 'utf8')) as { listen: string; upstream: string };

test('--listen and --upstream belong to their own --target, and a later build of another target keeps them', async (t) => {
  if (stale) return t.skip(stale);
  const both = await build('--target', 'nginx', '--listen', '127.0.0.1:18081', '--upstream', '127.0.0.1:4400', '--target', 'caddy', '--listen', '127.0.0.1:18082');
  assert.equal(both.code, 0, both.stdout + both.stderr);
  assert.deepEqual(front('nginx'), { listen: '127.0.0.1:18081', upstream: '127.0.0.1:4400' });
  assert.deepEqual(front('caddy'), { listen: '127.0.0.1:18082', upstream: '127.0.0.1:4321' });
  assert.match(await readFile(join(out, 'nginx', 'nginx.conf'), 'utf8'), /listen 127\.0\.0\.1:18081 reuseport;/);
  assert.match(await readFile(join(out, 'caddy', 'Caddyfile'), 'utf8'), /^http:\/\/127\.0\.0\.1:18082 \{$/m);

  // Only Caddy's address is given: nginx, written again because every build refreshes a front, keeps its own.
  const caddy = await build('--target', 'caddy', '--listen', '127.0.0.1:18083');
  assert.equal(caddy.code, 0, caddy.stdout + caddy.stderr);
  assert.equal(front('caddy').listen, '127.0.0.1:18083');
  assert.deepEqual(front('nginx'), { listen: '127.0.0.1:18081', upstream: '127.0.0.1:4400' });
  assert.match(await readFile(join(out, 'nginx', 'nginx.conf'), 'utf8'), /listen 127\.0\.0\.1:18081 reuseport;/);
});

test('--target static --listen is honoured when nothing else changed, and kept by the builds after it', async (t) => {
  if (stale) return t.skip(stale);
  const first = await build('--target', 'static');
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const conf = () => readFileSync(join(out, 'static-hosts', 'nginx.conf'), 'utf8');
  assert.match(conf(), /listen 127\.0\.0\.1:8080;/);
  const moved = await build('--target', 'static', '--listen', '127.0.0.1:18084');
  assert.equal(moved.code, 0, moved.stdout + moved.stderr);
  assert.match(moved.stdout, /no change since build/, 'nothing but the address changed');
  assert.match(conf(), /listen 127\.0\.0\.1:18084;/);
  assert.match(readFileSync(join(out, 'static-hosts', 'Caddyfile'), 'utf8'), /^http:\/\/127\.0\.0\.1:18084 \{$/m);
  const again = await build('--target', 'static');
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(conf(), /listen 127\.0\.0\.1:18084;/, 'a later build keeps the address');
});

test('a setting no named target takes is one line and exit 2, before anything is built', async () => {
  const refused = await build('--target', 'static', '--upstream', '127.0.0.1:4400');
  assert.equal(refused.code, 2);
  assert.equal(refused.stderr.trim(), '--upstream 127.0.0.1:4400 follows --target static, which takes no --upstream: it is for --target nginx or caddy');
});

test('a build whose absolute URLs would differ from a running server\'s says so in one line', async (t) => {
  if (stale) return t.skip(stale);
  const server = launch('src/server/main.ts', [], buildEnv({ PORT: '0', WORKERS: '1' }));
  const port = Number((await server.waitFor(/Folio listening on http:\/\/localhost:(\d+)/))[1]);
  const record = join(out, 'servers', `${server.child.pid}.json`);
  assert.deepEqual(JSON.parse(readFileSync(record, 'utf8')), { pid: server.child.pid, url: `http://localhost:${port}` });
  const liveUrl = (JSON.parse(readFileSync(join(out, 'current', 'bundle', 'main', 'catalog.json'), 'utf8')) as { site_url: string }).site_url;

  // The same URLs as the live build: not a word.
  const same = await build();
  assert.equal(same.code, 0, same.stdout + same.stderr);
  assert.match(same.stdout, /no change since build/);
  assert.doesNotMatch(same.stderr, /absolute URLs/);

  // Another PORT: the line comes before the work (the build is stopped there: its end is not the point).
  const other = launch('scripts/build.ts', [], buildEnv({ PORT: String(port) }));
  await other.waitFor(/^warning: this build's absolute URLs .*$/m);
  await stopGroup(other.child, 'SIGKILL');
  const lines = other.output().stderr.split('\n').filter((l) => l.includes('absolute URLs'));
  assert.deepEqual(lines, [
    `warning: this build's absolute URLs start with http://localhost:${port}, the live build's with ${liveUrl} (served on http://localhost:${port}): once live, its links point there; to keep them, build with SITE_URL=${liveUrl} npm run build`,
  ]);

  await stopGroup(server.child);
  assert.equal(existsSync(record), false, 'a stopped server leaves no record');
});

test('npm run chain tells npm run pay and npm run inbox where it serves and stores; without it, pay says so in one line', async (t) => {
  const dir = await mkdtemp(join(ROOT, '.folio-cache', 'chain-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const env = envWith({ FOLIO_CHAIN_DIR: dir, PORT: '0', CHAIN_PORT: '0' });
  const chain = launch('scripts/chain.ts', [], env);
  let url: string;
  try {
    url = (await chain.waitFor(/Folio listening on (http:\/\/localhost:\d+)/))[1]!;
    await chain.waitFor(/In another shell/);
  } catch (e) {
    if (/No anvil binary/.test(chain.output().stderr)) return t.skip('anvil cannot run on this platform');
    throw e;
  }

  // No PORT, no FOLIO_URL: pay finds the chain's server on the port PORT=0 chose.
  const payEnv = envWith({ FOLIO_CHAIN_DIR: dir });
  const paid = await run('scripts/pay.ts', ['--sender', 'ports', 'Where the chain serves.'], payEnv);
  assert.equal(paid.code, 0, paid.stdout + paid.stderr + chain.output().stdout.slice(-2000));
  assert.match(paid.stdout, /^200: \{"status":"sent"/m);

  const listed = await run('scripts/inbox.ts', ['list'], payEnv);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^1 message\(s\) in /m);
  assert.match(listed.stdout, /ports[\s\S]*Where the chain serves\./);
  const state = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { url: string; pid: number; inboxes: { main: string } };
  assert.deepEqual([state.url, state.pid], [url, chain.child.pid]);
  assert.ok(listed.stdout.includes(`in ${state.inboxes.main}`), listed.stdout);
  assert.match(chain.output().stdout, new RegExp(`served on ${url}\\. In another shell`));

  await stopGroup(chain.child);
  assert.equal(existsSync(join(dir, 'chain.json')), false, 'a stopped chain leaves no state');
  const alone = await run('scripts/pay.ts', ['Hello'], payEnv);
  assert.equal(alone.code, 1);
  assert.equal(alone.stderr.trim(), 'No running `npm run chain` to pay on: start it in another shell, or set PAYER_KEY and RPC_URL (and FOLIO_URL).');

  // A server that does not answer is one line naming its address, not a stack trace.
  const nowhere = `http://127.0.0.1:${await freePort()}`;
  const refused = await run('scripts/pay.ts', ['Hello'], envWith({ FOLIO_URL: nowhere, RPC_URL: 'http://127.0.0.1:9', PAYER_KEY: `0x${'11'.repeat(32)}` }));
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr.trim(), `Cannot reach the server at ${nowhere}/contact/send (ECONNREFUSED): is \`npm run chain\` (or the server) running? FOLIO_URL sets the address.`);
});
