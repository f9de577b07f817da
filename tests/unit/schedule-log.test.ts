import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureCause } from '../../src/server/schedule.ts';

test("a failed scheduled build's log line names its content errors, not only the step that failed", () => {
  const output = [
    'site url http://localhost:4321',
    'content/posts/later/en.md:12: link: /nowhere is no page or file of this site',
    '1 content error',
    'build failed: the bundle step failed (exit 1)',
    'nothing was published; the live build is unchanged (dist/current).',
  ].join('\n');
  assert.equal(failureCause(output), 'content/posts/later/en.md:12: link: /nowhere is no page or file of this site');
  const many = ['a.md:1: x', 'b.md:2: y', 'c.md:3: z', 'd.md:4: w', '4 content errors', 'build failed: the bundle step failed (exit 1)'].join('\n');
  assert.equal(failureCause(many), 'a.md:1: x | b.md:2: y | c.md:3: z (and 1 more)');
  assert.equal(failureCause('something\nbuild failed: the pages step failed (exit 1)\nnothing was published'), 'the pages step failed (exit 1)');
  assert.equal(failureCause('Killed'), 'Killed');
});
