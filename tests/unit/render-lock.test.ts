import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rendersThroughProject, withRenderLock } from '../../src/pipeline/live/render-lock.ts';

test('two renders of one project take turns; a lock whose holder died is taken over', async () => {
  const project = await mkdtemp(join(tmpdir(), 'folio-lock-'));
  const cwd = process.cwd();
  process.chdir(project);
  try {
    const events: string[] = [];
    const render = (name: string) => withRenderLock(async () => {
      events.push(`${name} in`);
      await new Promise((r) => setTimeout(r, 300));
      events.push(`${name} out`);
    });
    await Promise.all([render('a'), render('b')]);
    assert.deepEqual(events.map((e) => e.split(' ')[1]), ['in', 'out', 'in', 'out'], events.join(', '));
    // A process that is gone (its pid ended) left its lock behind.
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    await mkdir('.folio-render-lock');
    await writeFile(join('.folio-render-lock', 'pid'), String(dead));
    assert.equal(await withRenderLock(async () => 'rendered', 5_000), 'rendered');
  } finally {
    process.chdir(cwd);
    await rm(project, { recursive: true, force: true });
  }
});

test('only a build folder outside the project renders through it', () => {
  assert.equal(rendersThroughProject('dist/builds/x'), false);
  assert.equal(rendersThroughProject(join(tmpdir(), 'elsewhere')), true);
});
