import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileSystemFailure } from '../../src/pipeline/fs-failure.ts';

const fsError = (code: string, syscall: string, path?: string) => Object.assign(new Error(`${code}: ${syscall}`), { code, syscall, ...(path ? { path } : {}) });

test('a file-system error is one line naming the cause and the path; any other error is not one', () => {
  assert.equal(fileSystemFailure(fsError('ENOSPC', 'open', 'dist/builds/x/site/client/a.html')), 'no space left on device writing dist/builds/x/site/client/a.html');
  assert.equal(fileSystemFailure(fsError('EDQUOT', 'mkdir', 'dist/builds/x')), 'disk quota exceeded creating dist/builds/x');
  assert.equal(fileSystemFailure(fsError('EACCES', 'rename', 'dist/current')), 'permission denied moving dist/current');
  assert.equal(fileSystemFailure(fsError('ENOSPC', 'write')), 'no space left on device (write)');
  assert.equal(fileSystemFailure(fsError('ENOENT', 'open', 'x')), undefined);
  assert.equal(fileSystemFailure(new Error('x')), undefined);
  assert.equal(fileSystemFailure(undefined), undefined);
});

test('a build step that fills the disk (/dev/full) ends with that one line and exit 1, no stack', { skip: process.platform === 'linux' ? false : '/dev/full is Linux' }, () => {
  const script = `import { reportFileSystemFailures } from './src/pipeline/fs-failure.ts';
reportFileSystemFailures('bundle step: ');
const { writeFile } = await import('node:fs/promises');
await writeFile('/dev/full', 'x'.repeat(1 << 16));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  assert.equal(run.stderr.trim(), 'bundle step: no space left on device (write)');
});
