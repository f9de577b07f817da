// `npm test`: the whole test run, which cannot hang and always runs everything. It builds the site once
// (`npm run build -- --target all`, which every suite reads) while the type check runs, then runs every
// tests/unit and tests/e2e file and every host suite (the `test:*` scripts of package.json: the e2e files
// on workerd, behind nginx and Caddy, on Netlify's emulation), each file in a process group of its own
// with a deadline, several at a time. A file that fails or outlives its deadline is reported with its
// output and its processes are killed, and the run goes on; the exit code is non-zero at the end if
// anything failed. The run as a whole has a deadline too. At the end: each failure, the total time and
// the five slowest files.
//
//   npm test                          everything
//   npm test -- tests/e2e/rest.test.ts tests/unit/cite.test.ts
//                                     those files only (on Node; no build, no type check)
//   npm test -- --no-build --no-check the rest only (the build already made)
//   npm test -- --only=cloudflare,nginx
//                                     some suites only: unit, e2e, or a host (cloudflare, nginx, caddy, netlify)
//
// FOLIO_TEST_JOBS (files at a time, default 2), FOLIO_TEST_FILE_TIMEOUT (seconds a file may take,
// default 480), FOLIO_TEST_DEADLINE (seconds for the whole run, default 1380: with npm ci, .ci/run then ends within 25 minutes), FOLIO_TEST_VERBOSE=1 (every
// file's output, passing or not).
import { spawn, type ChildProcess } from 'node:child_process';
import { globSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CACHE_DIR } from '../src/artefact/roots.ts';
import { frontAbsent, FRONT_SUITES, type Front } from './helpers/front.ts';
import { killMarked, MARK, markFor } from './helpers/marked-processes.ts';

interface Job {
  /** What the report calls it: the file, after its host when it runs on one. */
  name: string;
  command: string[];
  env: Record<string, string>;
  /** Runs with nothing else: its measures (Lighthouse's performance score) suffer from a busy machine. */
  alone?: boolean;
}

interface Outcome {
  job: Job;
  status: 'ok' | 'failed' | 'timed out' | 'not run';
  seconds: number;
  output: string;
  /** What the file left running when it ended, killed by the runner. */
  leftovers: string[];
}

const seconds = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return (Number.isFinite(v) && v > 0 ? v : fallback) * 1000;
};
const JOBS = Math.max(1, Number(process.env.FOLIO_TEST_JOBS) || 2);
const FILE_TIMEOUT = seconds('FOLIO_TEST_FILE_TIMEOUT', 480);
const DEADLINE = seconds('FOLIO_TEST_DEADLINE', 1380);
const BUILD_TIMEOUT = seconds('FOLIO_TEST_BUILD_TIMEOUT', 600);
const VERBOSE = process.env.FOLIO_TEST_VERBOSE === '1';
const NODE_TEST = [process.execPath, '--test', '--disable-warning=ExperimentalWarning', '--test-reporter=./tests/helpers/quiet-reporter.ts', '--test-reporter-destination=stdout'];
/** Where each file's spec report is streamed as it runs (the quiet reporter says all only at the end): the tail of a file killed at its deadline. */
const PROGRESS = mkdtempSync(join(tmpdir(), 'folio-test-run-'));
const ALONE = new Set(['tests/e2e/lighthouse.test.ts']);

/**
 * Output that reads like a failure and is not one, printed once at the end with why instead of in every
 * failing file's output.
 */
const EXPECTED: { pattern: RegExp; why: string }[] = [
  {
    pattern: /NOSENTRY.*RPC connection broken|incoming RPC message exceeds size limit/,
    why: "workerd's log when wrangler's local proxy drops a connection with a large message in flight (a client gone mid-answer); the answer the test checks is unaffected",
  },
];

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const files = args.filter((a) => !a.startsWith('--'));
const unknown = [...flags].filter((f) => !['--no-build', '--no-check'].includes(f) && !f.startsWith('--only='));
if (unknown.length) {
  console.error(`unknown option ${unknown.join(', ')}: tests/run.ts takes files, --no-build, --no-check, --only=unit,e2e,cloudflare,nginx,caddy,netlify`);
  process.exit(2);
}
const wanted = (suite: string) => !files.length && (!only || only.includes(suite));

const runId = `${process.pid}-${Date.now().toString(36)}`;
let jobCount = 0;
const started = Date.now();
const outcomes: Outcome[] = [];
const running = new Map<ChildProcess, { job: Job; mark: string; stop: (status: Outcome['status']) => void }>();
const expectedSeen = new Map<RegExp, number>();
const notes: string[] = [];

/** The host suites of package.json: `test:X` scripts that run e2e files with settings (nginx and Caddy through run-front.ts). */
function hostJobs(): Job[] {
  const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  const jobs: Job[] = [];
  for (const [script, line] of Object.entries(scripts)) {
    const host = /^test:(.+)$/.exec(script)?.[1];
    if (!host || !wanted(host)) continue;
    const front = /run-front\.ts (nginx|caddy)$/.exec(line)?.[1] as Front | undefined;
    if (front) {
      const absent = frontAbsent(front);
      if (absent) notes.push(`skipped ${host} (${FRONT_SUITES.length} files): ${absent}`);
      else for (const file of FRONT_SUITES) jobs.push({ name: `${host}: ${file}`, command: [...NODE_TEST, file], env: { FOLIO_TEST_FRONT: front } });
      continue;
    }
    const env = Object.fromEntries([...line.matchAll(/(?:^|\s)([A-Z_]+)=(\S+)(?=\s)/g)].map((m) => [m[1]!, m[2]!]));
    for (const [file] of line.matchAll(/tests\/\S+\.test\.ts/g)) jobs.push({ name: `${host}: ${file}`, command: [...NODE_TEST, file], env });
  }
  return jobs;
}

function testJobs(): Job[] {
  const listed = files.length ? files : (['unit', 'e2e'] as const).filter(wanted).flatMap((dir) => globSync(`tests/${dir}/*.test.ts`).sort());
  return [...listed.map((file) => ({ name: file, command: [...NODE_TEST, file], env: {}, alone: ALONE.has(file) })), ...hostJobs()];
}

/** Seconds each file took last time (kept in the build cache), to start the longest first. */
const TIMES = join(CACHE_DIR, 'test-times.json');
const lastTimes = (() => {
  try {
    return JSON.parse(readFileSync(TIMES, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
})();

function run(job: Job, timeoutMs: number): Promise<Outcome> {
  const id = `${runId}-${++jobCount}`;
  const mark = markFor(process.env[MARK], id);
  const t0 = Date.now();
  // NODE_TEST_CONTEXT is set when this run is itself inside a test (tests/e2e/runner.test.ts): it would
  // make each file's `node --test` report to that test's runner instead of running as a run of its own.
  const env: NodeJS.ProcessEnv = { ...process.env, ...job.env, [MARK]: mark };
  delete env.NODE_TEST_CONTEXT;
  const progress = join(PROGRESS, `${id}.log`);
  const command = job.command.includes('--test') ? [...job.command.slice(0, -1), '--test-reporter=spec', `--test-reporter-destination=${progress}`, job.command.at(-1)!] : job.command;
  const child = spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise<Outcome>((resolve) => {
    let forced: Outcome['status'] | undefined;
    const stop = (status: Outcome['status']) => {
      forced ??= status;
      killMarked(child.pid, id);
    };
    const timer = setTimeout(() => stop('timed out'), timeoutMs);
    running.set(child, { job, mark, stop });
    const finish = (code: number | null) => {
      clearTimeout(timer);
      running.delete(child);
      // Whatever the file left running goes with it, whatever the outcome.
      const leftovers = killMarked(child.pid, id).map((p) => `${p.pid} ${p.command}`);
      const status = forced ?? (code === 0 ? 'ok' : 'failed');
      if (status === 'timed out') {
        let tail = '';
        try {
          tail = readFileSync(progress, 'utf8').trimEnd().split('\n').slice(-40).join('\n');
        } catch {
          // no report yet
        }
        output += `\ntests/run.ts: ${job.name} still running after ${timeoutMs / 1000} s (FOLIO_TEST_FILE_TIMEOUT): killed with its processes${tail ? `; the last lines of its report:\n${tail}` : ''}\n`;
      }
      resolve({ job, status, seconds: (Date.now() - t0) / 1000, output, leftovers });
    };
    child.once('error', (e) => {
      output += String(e);
      finish(null);
    });
    child.once('close', finish);
  });
}

/** A file's output without the lines EXPECTED explains, which are counted instead. */
function withoutExpected(text: string): string {
  return text
    .split('\n')
    .filter((line) => {
      const known = EXPECTED.find((e) => e.pattern.test(line));
      if (known) expectedSeen.set(known.pattern, (expectedSeen.get(known.pattern) ?? 0) + 1);
      return !known;
    })
    .join('\n');
}

function report(o: Outcome) {
  outcomes.push(o);
  const head = `${o.status === 'ok' ? 'ok  ' : o.status.toUpperCase()} ${o.seconds.toFixed(1).padStart(6)} s  ${o.job.name}`;
  const text = withoutExpected(o.output).trimEnd();
  const lines = text.split('\n');
  if (o.status === 'ok' && !VERBOSE) {
    // The reporter's summary and its skips: the rest of a passing file's output is noise.
    const kept = lines.filter((l) => /^(ok|skipped|FAIL)\b/.test(l));
    console.log(`${head}${kept.length ? `\n${kept.map((l) => `      ${l}`).join('\n')}` : ''}`);
  } else {
    console.log(`${head}\n${text}\n`);
  }
  if (o.leftovers.length) console.log(`      left ${o.leftovers.length} process${o.leftovers.length === 1 ? '' : 'es'} running, killed: ${o.leftovers.map((l) => l.slice(0, 120)).join('; ')}`);
}

/** Runs the jobs, up to JOBS at a time (a job `alone` with nothing else), longest (last time) first. */
async function pool(jobs: Job[], width: number): Promise<void> {
  const queue = [...jobs].sort((a, b) => (lastTimes[b.name] ?? 60) - (lastTimes[a.name] ?? 60));
  const active = new Set<Promise<void>>();
  let aloneRunning = false;
  while (queue.length || active.size) {
    if (globalExpired) break;
    const index = queue.findIndex((j) => (j.alone ? active.size === 0 : !aloneRunning));
    if (index >= 0 && active.size < width) {
      const job = queue.splice(index, 1)[0]!;
      if (job.alone) aloneRunning = true;
      const p: Promise<void> = run(job, job.command.includes('scripts/build.ts') ? BUILD_TIMEOUT : FILE_TIMEOUT).then((o) => {
        if (job.alone) aloneRunning = false;
        active.delete(p);
        if (!globalExpired) report(o);
      });
      active.add(p);
      continue;
    }
    await Promise.race([...active, globalTimeout]);
  }
  for (const job of queue) outcomes.push({ job, status: 'not run', seconds: 0, output: '', leftovers: [] });
}

let globalExpired = false;
const globalTimeout = new Promise<void>((resolve) =>
  setTimeout(() => {
    globalExpired = true;
    const names = [...running.values()].map((r) => r.job.name);
    console.log(`\ntests/run.ts: the run's deadline of ${DEADLINE / 1000} s (FOLIO_TEST_DEADLINE) has passed: killing ${names.length ? names.join(', ') : 'nothing'}; the files not started are reported as not run`);
    for (const [, r] of running) r.stop('timed out');
    for (const [child, r] of running) outcomes.push({ job: r.job, status: 'timed out', seconds: (Date.now() - started) / 1000, output: '', leftovers: [] }), running.delete(child);
    resolve();
  }, DEADLINE).unref(),
);

/** Ends the run at once, its running files killed with their processes (they are in groups of their own: no signal reaches them otherwise). */
function abort(why: string): never {
  for (const [, r] of running) r.stop('failed');
  console.log(`\ntests/run.ts: ${why}; the running files were killed with their processes`);
  rmSync(PROGRESS, { recursive: true, force: true });
  process.exit(130);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => abort(`stopped by ${signal}`));
// npm, when it is killed, does not pass the signal on: a run whose parent went is ended too.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && abort(`its parent process ${parent} has ended`), 1000).unref();

function summary(): number {
  const total = (Date.now() - started) / 1000;
  const bad = outcomes.filter((o) => o.status !== 'ok');
  console.log('');
  for (const n of notes) console.log(n);
  for (const e of EXPECTED) {
    const n = expectedSeen.get(e.pattern);
    if (n) console.log(`expected, not a failure (${n} line${n === 1 ? '' : 's'} left out above): ${e.pattern.source}: ${e.why}`);
  }
  const slowest = outcomes.filter((o) => o.status !== 'not run' && !o.job.name.startsWith('npm ')).sort((a, b) => b.seconds - a.seconds).slice(0, 5);
  console.log(`slowest files: ${slowest.map((o) => `${o.job.name} ${o.seconds.toFixed(0)} s`).join(', ')}`);
  const counts = ['ok', 'failed', 'timed out', 'not run'].map((s) => [s, outcomes.filter((o) => o.status === s).length] as const).filter(([s, n]) => n || s === 'ok');
  console.log(`${bad.length ? 'FAIL' : 'ok'}: ${outcomes.length} files and steps in ${total.toFixed(0)} s (${JOBS} at a time): ${counts.map(([s, n]) => `${n} ${s}`).join(', ')}`);
  for (const o of bad) console.log(`  ${o.status}: ${o.job.name}`);
  // Kept for the next run's order (a run of some files keeps the others' times).
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const times = { ...lastTimes, ...Object.fromEntries(outcomes.filter((o) => o.status === 'ok').map((o) => [o.job.name, Math.round(o.seconds)])) };
    writeFileSync(TIMES, `${JSON.stringify(times, null, 1)}\n`);
  } catch {
    // A read-only checkout: the order is the default one.
  }
  return bad.length ? 1 : 0;
}

// The build and the type check first (the build is what every suite reads), then every file.
const first: Job[] = [];
// The Workers project negotiating pages as Node does (FOLIO_WORKERS_NEGOTIATE=1): the e2e suites run on it (test:cloudflare); tests/e2e/cloudflare.test.ts writes the default project itself.
if (!files.length && !flags.has('--no-build')) first.push({ name: 'npm run build -- --target all', command: [process.execPath, 'scripts/build.ts', '--target', 'all'], env: { FOLIO_WORKERS_NEGOTIATE: '1' } });
if (!files.length && !flags.has('--no-check')) first.push({ name: 'npm run check', command: [process.execPath, 'node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'], env: {} });
await pool(first, 2);
if (!globalExpired) await pool(testJobs(), JOBS);
else for (const job of testJobs()) outcomes.push({ job, status: 'not run', seconds: 0, output: '', leftovers: [] });
rmSync(PROGRESS, { recursive: true, force: true });
process.exit(summary());
