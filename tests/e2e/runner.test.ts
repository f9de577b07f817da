import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signalGroup, spawnGroup } from '../helpers/process-group.ts';

/** A process that is there and not a zombie (killed, waiting to be reaped: it runs nothing). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/, '').trim().split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The live processes of a process group. */
const inGroup = (group: number) =>
  readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/, '').trim().split(' ');
        return Number(fields[2]) === group && fields[0] !== 'Z';
      } catch {
        return false;
      }
    });

// `npm test` (tests/run.ts) on a suite whose server never starts, then a suite that passes, one at a
// time: the first is killed at its deadline with what it started, the second still runs.
test('the test runner kills a suite that hangs with its processes, names it, runs the next and fails the run', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-runner-'));
  const FILE_TIMEOUT_S = 8;
  // The runner's own start (Node, TypeScript) and the passing file, on a machine other tests keep busy.
  const MARGIN_S = 60;
  try {
    const t0 = Date.now();
    const child = spawnGroup(process.execPath, ['tests/run.ts', 'tests/fixtures/runner/never-starts.fixture.ts', 'tests/fixtures/runner/passes.fixture.ts'], {
      env: { ...process.env, FOLIO_TEST_JOBS: '1', FOLIO_TEST_FILE_TIMEOUT: String(FILE_TIMEOUT_S), FOLIO_TEST_DEADLINE: '300', FOLIO_CACHE: join(dir, 'cache'), FIXTURE_PIDS: join(dir, 'pids.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), (FILE_TIMEOUT_S + MARGIN_S) * 1000);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    clearTimeout(timer);
    const took = (Date.now() - t0) / 1000;
    assert.equal(code, 1, out);
    assert.ok(took < FILE_TIMEOUT_S + MARGIN_S, `the run took ${took} s:\n${out}`);
    assert.ok(took >= FILE_TIMEOUT_S, `the hanging suite was given its ${FILE_TIMEOUT_S} s (the run took ${took} s):\n${out}`);
    assert.match(out, /^TIMED OUT +[\d.]+ s {2}tests\/fixtures\/runner\/never-starts\.fixture\.ts$/m);
    assert.match(out, /never-starts\.fixture\.ts still running after 8 s \(FOLIO_TEST_FILE_TIMEOUT\): killed with its processes; the last lines of its report:\n.*waiting for server \d+ to say it is ready/);
    assert.match(out, /^ok +[\d.]+ s {2}tests\/fixtures\/runner\/passes\.fixture\.ts$/m, 'the next suite ran');
    assert.match(out, /^FAIL: 2 files and steps in \d+ s \(1 at a time\): 1 ok, 1 timed out$/m);
    assert.match(out, /^ {2}timed out: tests\/fixtures\/runner\/never-starts\.fixture\.ts$/m);
    const pids = JSON.parse(await readFile(join(dir, 'pids.json'), 'utf8')) as { server: number; helper: number; group: number };
    assert.equal(running(pids.server), false, `the server in a session of its own (${pids.server}) is gone`);
    assert.equal(running(pids.helper), false, `the helper (${pids.helper}) is gone`);
    assert.deepEqual(inGroup(pids.group), [], `the suite's process group ${pids.group} is gone`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
