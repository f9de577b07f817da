// XLIFF 2.1 round trips through the real command (`npm run translations -- export/import`) on copies of
// the demo posts: byte-identical when unchanged, one edited target changes one segment (a person's), a stale
// export refused; every file valid against the OASIS XLIFF 2 core schema (xmllint) and read by the `xliff` library.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import xliff from 'xliff';
import { MEMORY_FILE, TranslationMemory } from '../../src/translate/memory.ts';
import { englishSegments, journalWrite } from '../../src/translate/translate-post.ts';
import { documentText } from '../../src/translate/segments.ts';
import matter from 'gray-matter';
import { DEADLINE_MS, translations } from '../helpers/translations-command.ts';

const SCHEMA = 'tests/fixtures/xliff-2.1/xliff_core_2.0.xsd';


const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;

function validate(file: string, t: { skip: (m: string) => void }): void {
  if (!hasXmllint) return t.skip('xmllint is not installed (apt-get install -y libxml2-utils): schema check skipped');
  const run = spawnSync('xmllint', ['--noout', '--schema', SCHEMA, file], { encoding: 'utf8', timeout: DEADLINE_MS });
  assert.equal(run.status, 0, run.stderr);
}

/** Every file under a folder, as bytes, by path. */
async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name)));
  }
  return out;
}

describe('XLIFF 2.1 exchange', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-xliff-'));
    await cp('content', join(root, 'content'), { recursive: true });
  });
  after(() => rm(root, { recursive: true, force: true }));

  for (const [slug, lang] of [
    ['bread-and-time', 'de'],
    ['a-field-guide-to-translation', 'ja'],
    ['learning-in-public', 'ar'],
  ] as const) {
    it(`${slug} ${lang}: export valid XLIFF, import unchanged leaves every byte`, async (t) => {
      const content = join(root, 'content');
      const file = join(root, `${slug}.${lang}.xlf`);
      const before = await snapshot(content);
      const exported = await translations(content, 'export', '--format', 'xliff', slug, lang, '--out', file);
      assert.equal(exported.code, 0, exported.stderr);
      const xml = await readFile(file, 'utf8');
      assert.match(xml, /<xliff xmlns="urn:oasis:names:tc:xliff:document:2\.0" version="2\.1" srcLang="en" trgLang="/);
      assert.match(xml, /<skeleton>---\ntitle: /);
      // Read by an independent XLIFF library: one resource, every unit with its target.
      const parsed = await xliff.xliff2js(xml);
      assert.equal(parsed.targetLanguage, lang);
      const units = Object.values(parsed.resources[slug]!);
      assert.ok(units.length > 5);
      assert.ok(units.every((u) => u.target !== undefined), 'every unit has the current translation as its target');
      validate(file, t);

      const imported = await translations(content, 'import', file);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /^unchanged /);
      assert.deepEqual(await snapshot(content), before);
    });
  }

  it('one edited target changes that segment only, recorded as a person\'s', async (t) => {
    const content = join(root, 'content');
    const file = join(root, 'edit.xlf');
    const post = join(content, 'posts', 'bread-and-time');
    assert.equal((await translations(content, 'export', '--format', 'xliff', 'bread-and-time', 'de', '--out', file)).code, 0);
    const xml = await readFile(file, 'utf8');
    // The unit of the paragraph with two links: edit words around and inside them, keep the codes.
    const old = 'In Wirklichkeit ist es ein kleines, stabiles Ökosystem.';
    assert.ok(xml.includes(old));
    await writeFile(file, xml.replace(old, 'Tatsächlich ist es ein kleines, stabiles Ökosystem.'));
    validate(file, t);
    const before = await readFile(join(post, 'de.md'), 'utf8');
    // As if Folio had written the file: its memory records what each segment was written as.
    const read = async (f: string) => {
      const m = matter(await readFile(join(post, f), 'utf8'));
      return documentText(m.data, m.content);
    };
    const memoryBefore = await TranslationMemory.open(join(post, MEMORY_FILE));
    const english = englishSegments(await read('en.md'), undefined);
    journalWrite(memoryBefore, 'de', before, english, await read('de.md'), english.segments.map(() => 'engine:test'), undefined);
    memoryBefore.commit('de');
    await memoryBefore.save();
    const run = await translations(content, 'import', file);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /1 segment changed, recorded as a person's/);
    const afterText = await readFile(join(post, 'de.md'), 'utf8');
    const body = (s: string) => s.slice(s.indexOf('\n---', 3) + 4).replace(/^\n+/, '');
    // Only that paragraph differs, byte for byte, links and all.
    assert.equal(body(afterText), body(before).replace(old, 'Tatsächlich ist es ein kleines, stabiles Ökosystem.'));
    assert.match(afterText, /^automated: false$/m);
    const memory = JSON.parse(await readFile(join(post, MEMORY_FILE), 'utf8')) as { segments: Record<string, Record<string, { human?: string }>> };
    const human = Object.values(memory.segments).flatMap((byLang) => (byLang.de?.human ? [byLang.de.human] : []));
    assert.equal(human.length, 1, 'exactly the edited segment is a person\'s');
    assert.match(human[0]!, /^Ein Anstellgut .*Tatsächlich ist es ein kleines/);
    // Imported again: nothing more to write.
    const again = await translations(content, 'import', file);
    assert.match(again.stdout, /^unchanged /);
  });

  it('a target that drops a protected link is refused, naming the unit; nothing is written', async () => {
    const content = join(root, 'content');
    const file = join(root, 'broken.xlf');
    assert.equal((await translations(content, 'export', '--format', 'xliff', 'bread-and-time', 'fr', '--out', file)).code, 0);
    const xml = await readFile(file, 'utf8');
    const target = /<target xml:space="preserve">[^\n]*?(<pc id="1" type="link"[^>]*>([^<]*)<\/pc>)/.exec(xml)!;
    await writeFile(file, xml.replace(target[1]!, target[2]!));
    const before = await snapshot(content);
    const run = await translations(content, 'import', file);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^translations: .*broken\.xlf: unit u\d+ \(paragraph at line \d+\): placeholder 1 dropped\n$/);
    assert.deepEqual(await snapshot(content), before);
  });

  it('an export whose English changed since is refused, naming the unit and the file', async () => {
    const content = join(root, 'content');
    const file = join(root, 'stale.xlf');
    assert.equal((await translations(content, 'export', '--format', 'xliff', 'learning-in-public', 'es', '--out', file)).code, 0);
    const en = join(content, 'posts', 'learning-in-public', 'en.md');
    await writeFile(en, (await readFile(en, 'utf8')).replace(/^title: .*$/m, 'title: "Learning, in public"'));
    const es = join(content, 'posts', 'learning-in-public', 'es.md');
    const before = await readFile(es);
    const run = await translations(content, 'import', file);
    assert.equal(run.code, 2);
    assert.equal(run.stderr.trim().split('\n').length, 1);
    assert.match(run.stderr, /stale\.xlf: unit u1 does not match the current English \(it changed since export\)/);
    assert.deepEqual(await readFile(es), before);
  });
});
