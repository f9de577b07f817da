import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * The pipeline drawing of docs/architecture.md (issue 33; the README's until issue 41) names the folders
 * of src/pipeline/ as they are: a folder renamed, added or dropped without the drawing fails here, and so
 * does a phase folder without its two-line README (what it takes, what it gives).
 */
const PIPELINE = 'src/pipeline';
const PHASES = ['load', 'derive', 'index', 'pages', 'publish', 'live'];

const readme = readFileSync('docs/architecture.md', 'utf8');
const drawing = /<!-- pipeline:[\s\S]*?-->\s*```text\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const folders = readdirSync(PIPELINE, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
/** Each `name/` the drawing says on its own (not `src/pages/` nor `dist/current`). */
const named = [...drawing.matchAll(/(?<![\w./-])([\w-]+)\/(?![\w.-])/g)].map((m) => m[1]!);

test('docs/architecture.md draws the pipeline', () => {
  assert.ok(drawing.length > 0, 'a ```text block after the <!-- pipeline: --> comment in docs/architecture.md');
});

test('every folder the drawing names exists: a phase of src/pipeline/ or a content root', () => {
  for (const name of named) assert.ok(folders.includes(name) || existsSync(name), `${name}/ is neither ${PIPELINE}/${name} nor a folder at the root`);
  for (const path of drawing.match(/\bsrc\/[\w.[\]/-]+/g) ?? []) assert.ok(existsSync(path), `${path} exists`);
});

test('the drawing names every folder of src/pipeline/, the phases in their order', () => {
  assert.deepEqual(folders.filter((f) => !named.includes(f)), [], 'folders of src/pipeline/ the drawing leaves out');
  const line = drawing.split('\n').find((l) => PHASES.every((p) => l.includes(`${p}/`)));
  assert.ok(line, `one line of the drawing runs ${PHASES.join(' -> ')}`);
  const at = PHASES.map((p) => line.indexOf(`${p}/`));
  assert.deepEqual(at, [...at].sort((a, b) => a - b), `in the order ${PHASES.join(', ')}`);
});

test('each folder of src/pipeline/ opens with a two-line README: what it takes, what it gives', () => {
  for (const dir of [PIPELINE, ...folders.map((f) => `${PIPELINE}/${f}`)]) {
    const file = `${dir}/README.md`;
    assert.ok(existsSync(file), `${file} exists`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 2, `${file} has two lines`);
    assert.match(lines.join(' '), /\btakes\b[\s\S]*\bgives\b/i, `${file} says what it takes and what it gives`);
  }
});
