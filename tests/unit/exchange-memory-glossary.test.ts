// The memory as TMX 1.4b (valid against the TMX 1.4 DTD with xmllint) and the glossary as TBX and CSV, through
// the real command on a copy of the demo content: export then import unchanged writes nothing; an edited term is taken.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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

  it('refuses a TMX import in one line (the memory cannot yet hold it as a person\'s)', async () => {
    const file = join(root, 'memory.tmx');
    const run = await translations(content, 'import', file);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^translations: .*memory\.tmx: importing TMX/);
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
