// The memory as TMX 1.4b (valid against the TMX 1.4 DTD with xmllint) and the glossary as TBX and CSV, through
// the real command on a copy of the demo content: export then import unchanged writes nothing; an edited term or text is taken.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGlossary } from '../../src/translate/glossary.ts';
import { DEADLINE_MS, translations } from '../helpers/translations-command.ts';

const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;


describe('TMX, TBX and CSV exchange', () => {
  let root: string;
  let content: string;
  const GLOSSARY = '# kept as written\ndo_not_translate: [link rot, Pew Research Center]\nterms:\n  web: {fr: toile, de: "Netz, das"}\n';
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-exchange-'));
    content = join(root, 'content');
    await cp('content', content, { recursive: true });
    await writeFile(join(content, 'glossary.yaml'), GLOSSARY);
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('exports the memory as TMX 1.4b: every English segment with its aligned translations, valid against the DTD', async (t) => {
    const file = join(root, 'memory.tmx');
    const run = await translations(content, 'export', '--format', 'tmx', '--out', file);
    assert.equal(run.code, 0, run.stderr);
    const xml = await readFile(file, 'utf8');
    assert.match(xml, /<tmx version="1\.4">/);
    assert.match(xml, /<tuv xml:lang="en"><seg>Bread and Time<\/seg><\/tuv>\n(?: {3}<tuv [^\n]*\n)*? {3}<tuv xml:lang="de"><seg>Brot und Zeit<\/seg><\/tuv>/);
    assert.match(xml, /<bpt i="1" x="1" type="link"\/>[^<]+<ept i="1"\/>/);
    if (!hasXmllint) return t.skip('xmllint is not installed (apt-get install -y libxml2-utils): DTD check skipped');
    const check = spawnSync('xmllint', ['--noout', '--dtdvalid', 'tests/fixtures/tmx-1.4/tmx14.dtd', file], { encoding: 'utf8', timeout: DEADLINE_MS });
    assert.equal(check.status, 0, check.stderr);
  });

  it('imports a TMX: exported and imported unchanged, every file keeps every byte; an edited text is written as a person\'s, where its English is current', async () => {
    const file = join(root, 'memory.tmx');
    const exported = await translations(content, 'export', '--format', 'tmx', '--out', file);
    assert.equal(exported.code, 0, exported.stderr);
    const snapshot = async () => {
      const files = (await readdir(join(content, 'posts'), { recursive: true })).map(String).filter((f) => f.endsWith('.md') || f.endsWith('.translation-memory.json')).sort();
      return Object.fromEntries(await Promise.all(files.map(async (f) => [f, await readFile(join(content, 'posts', f), 'utf8')])));
    };
    const before = await snapshot();
    const unchanged = await translations(content, 'import', file);
    assert.equal(unchanged.code, 0, unchanged.stderr);
    assert.match(unchanged.stdout, /^unchanged: /);
    assert.deepEqual(await snapshot(), before, 'every byte as it was');

    // One German text edited, and a unit whose English is not the current English's (it is left alone).
    const xml = await readFile(file, 'utf8');
    const edited = xml.replace('<tuv xml:lang="de"><seg>Brot und Zeit</seg></tuv>', '<tuv xml:lang="de"><seg>Brot und die Zeit</seg></tuv>').replace('<tuv xml:lang="en"><seg>Bread and Time</seg></tuv>', '<tuv xml:lang="en"><seg>Bread and Time</seg></tuv>');
    assert.notEqual(edited, xml);
    const stale = edited.replace(' </body>', '  <tu>\n   <tuv xml:lang="en"><seg>An English no post has.</seg></tuv>\n   <tuv xml:lang="de"><seg>Ein Deutsch.</seg></tuv>\n  </tu>\n </body>');
    await writeFile(file, stale);
    const run = await translations(content, 'import', file);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^imported .*memory\.tmx: 1 segment changed in .*bread-and-time\/de\.md, recorded as a person's$/m);
    const after = await snapshot();
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => before[f] !== after[f]).sort();
    assert.deepEqual(changed, ['bread-and-time/.translation-memory.json', 'bread-and-time/de.md'].sort(), 'that file and its memory alone');
    assert.match(after['bread-and-time/de.md']!, /^title: "?Brot und die Zeit"?$/m);
    assert.match(after['bread-and-time/de.md']!, /^automated: false$/m);
    const memory = JSON.parse(after['bread-and-time/.translation-memory.json']!) as { written: Record<string, [string, string, string?][]> };
    assert.deepEqual(memory.written.de!.filter(([, , by]) => by === 'person').map(([, text]) => text).includes('Brot und die Zeit'), true, 'the memory records it as a person\'s');
  });

  for (const format of ['tbx', 'csv'] as const) {
    it(`glossary as ${format.toUpperCase()}: unchanged import writes nothing; an edited translation is taken and checked`, async () => {
      await writeFile(join(content, 'glossary.yaml'), GLOSSARY);
      const file = join(root, `glossary.${format}`);
      assert.equal((await translations(content, 'export', '--format', format, '--out', file)).code, 0);
      const text = await readFile(file, 'utf8');
      if (format === 'tbx') assert.match(text, /<tbx type="TBX-Core" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">/);
      else assert.match(text, /^term,do_not_translate,/);
      const same = await translations(content, 'import', file);
      assert.equal(same.code, 0, same.stderr);
      assert.match(same.stdout, /^unchanged /);
      assert.equal(await readFile(join(content, 'glossary.yaml'), 'utf8'), GLOSSARY);

      await writeFile(file, text.replace('toile', 'Toile'));
      const edited = await translations(content, 'import', file);
      assert.equal(edited.code, 0, edited.stderr);
      const glossary = await loadGlossary(content);
      assert.deepEqual(glossary?.terms, { web: { fr: 'Toile', de: 'Netz, das' } });
      assert.deepEqual(glossary?.doNotTranslate, ['link rot', 'Pew Research Center']);

      // A term both kept and translated is refused by the glossary's own checks; the file stays as it was.
      const before = await readFile(join(content, 'glossary.yaml'), 'utf8');
      await writeFile(file, format === 'csv' ? `${text}web,yes${',' .repeat(13)}\r\n` : text.replace('<term>link rot</term>', '<term>web</term>'));
      const bad = await translations(content, 'import', file);
      assert.equal(bad.code, 2, bad.stdout);
      assert.match(bad.stderr, /also in do_not_translate/);
      assert.equal(await readFile(join(content, 'glossary.yaml'), 'utf8'), before);
    });
  }
});
