import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveBuild } from '../../src/pipeline/live/go-live.ts';

/**
 * Builds killed mid-way (kill -9) leave folders behind; the next good build removes every folder that
 * is not the live build, the two that went live before it, a running build or a holder of a kept one
 * (docs/publishing.md), and never the builds that were live.
 */
let dir: string;
let out: string;
let content: string;
let edits = 0;

/**
 * A build of content changed since the last (so it does not stop at "no change"; `change` false: the same); given `killAfterMs`,
 * killed that long after its folder appears.
 */
function build(killAfterMs?: number, change = true): Promise<{ code: number | null; output: string }> {
  return (change ? appendFile(join(content, 'posts', 'bread-and-time', 'en.md'), `\nEdit ${++edits}.\n`) : Promise.resolve()).then(
    () =>
      new Promise((resolve) => {
        // Its own process group, so the kill takes its steps too (nothing writes after it).
        const child = spawn(process.execPath, ['scripts/build.ts'], { env: { ...process.env, FOLIO_CONTENT: content, FOLIO_OUT: out, FOLIO_CACHE: join(dir, 'cache') }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        let output = '';
        child.stdout.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr.on('data', (c: Buffer) => (output += c.toString()));
        let timer: ReturnType<typeof setTimeout> | undefined;
        if (killAfterMs !== undefined) {
          const before = readdirSync(join(out, 'builds'));
          const watch = setInterval(() => {
            if (readdirSync(join(out, 'builds')).length === before.length) return;
            clearInterval(watch);
            timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), killAfterMs);
          }, 20);
          child.on('exit', () => clearInterval(watch));
        }
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve({ code, output });
        });
      }),
  );
}

const folders = async () => (await readdir(join(out, 'builds'))).sort();

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-dead-builds-'));
  out = join(dir, 'dist');
  content = join(dir, 'content');
  await cp('content', content, { recursive: true });
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('after builds killed mid-way, a good build keeps only the live build, the two live before it and their holders', async () => {
  const live: string[] = [];
  for (let i = 0; i < 2; i++) {
    const good = await build();
    assert.equal(good.code, 0, good.output);
    live.push((await liveBuild(out))!);
  }
  const before = await folders();
  for (const ms of [0, 700, 1_500]) {
    const killed = await build(ms);
    assert.equal(killed.code, null, `killed at ${ms} ms, not ended: ${killed.output}`);
  }
  const dead = (await folders()).filter((id) => !before.includes(id));
  assert.equal(dead.length, 3, 'each killed build left its folder');
  // One died complete, between writing its manifest and going live: it never was live.
  await writeFile(join(out, 'builds', dead[2]!, 'manifest.json'), '{}');
  const good = await build();
  assert.equal(good.code, 0, good.output);
  live.push((await liveBuild(out))!);
  assert.deepEqual(await folders(), [...live].sort(), 'the live build and the two live before it; no dead build');
  for (const id of dead) assert.ok(!existsSync(join(out, 'builds', id)), `${id} removed`);
});

test('killed at the `current` rename, a build leaves an older build and dist/trash: the next build prunes them even with no change to publish', async () => {
  const kept = await folders();
  assert.equal(kept.length, 3, 'the first test left the live build and the two before it');
  // What a build killed just after its rename leaves: the build it would have removed (the oldest that
  // went live) still in builds/, and what an earlier removal moved to trash/ not yet deleted.
  // Ids sort by their start time: the first is the oldest.
  const oldest = kept[0]!;
  const wentLive = Number(await readFile(join(out, 'builds', oldest, 'went-live'), 'utf8'));
  const older = `00000000T000000000Z-${oldest.slice(-6)}`;
  await cp(join(out, 'builds', oldest), join(out, 'builds', older), { recursive: true });
  await writeFile(join(out, 'builds', older, 'went-live'), String(wentLive - 60_000));
  await mkdir(join(out, 'trash', 'a-removed-build'), { recursive: true });
  const same = await build(undefined, false);
  assert.equal(same.code, 0, same.output);
  assert.match(same.output, /no change since build/);
  assert.deepEqual(await folders(), kept, 'the older build is removed');
  // The trash is deleted by the process the build leaves in the background.
  for (const until = Date.now() + 20_000; existsSync(join(out, 'trash')) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
  assert.ok(!existsSync(join(out, 'trash')), 'dist/trash deleted');
});
