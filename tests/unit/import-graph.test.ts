import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import madge from 'madge';

/**
 * No module imports itself through others (issue 33): a circle makes load order matter and keeps
 * layers from being read, tested or moved on their own. Type-only imports count too: they tie the
 * modules together for a reader as much as a value does. (.astro pages are leaves: nothing imports them.)
 */
const graphOf = (paths: string[], baseDir?: string) => madge(paths, { baseDir, fileExtensions: ['ts'], tsConfig: 'tsconfig.json', detectiveOptions: { ts: { skipTypeImports: false } } });

test('the import graph of src, functions, scripts, bench and tests has no circle', async () => {
  const graph = await graphOf(['src', 'functions', 'scripts', 'bench', 'tests']);
  assert.ok(Object.keys(graph.obj()).length > 300, 'every module is in the graph');
  assert.deepEqual(graph.circular(), [], 'import circles (each a chain of modules leading back to its first)');
});

test('the check sees a circle, type-only ones included', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-circle-'));
  try {
    await writeFile(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport type A = { b?: B };\n");
    await writeFile(join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport type B = { a?: A };\n");
    assert.deepEqual((await graphOf([dir], dir)).circular(), [['a.ts', 'b.ts']]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
