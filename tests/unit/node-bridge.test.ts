import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { bytesResponse, json, madeFrom } from '../../functions/http.ts';
import { writeResponse } from '../../src/server/node-bridge.ts';

/** A ServerResponse that records what the bridge asks of it. */
function recorder() {
  const calls: { head?: [number, Record<string, string>]; writes: Uint8Array[]; ends: (string | Uint8Array | undefined)[] } = { writes: [], ends: [] };
  const res = Object.assign(new EventEmitter(), {
    writeHead(status: number, headers: Record<string, string>) {
      calls.head = [status, headers];
      return res;
    },
    write(chunk: Uint8Array) {
      calls.writes.push(chunk);
      return true;
    },
    end(chunk?: string | Uint8Array) {
      calls.ends.push(chunk);
      return res;
    },
    destroy() {},
  });
  return { res: res as unknown as ServerResponse, calls };
}

// Issue 39, item 16: a Web stream read per answer cost more than most answers take to compute.
test('an answer made from text or bytes is written in one call, its stream unread', async () => {
  const text = json({ q: 'brot', total: 1 });
  const { res, calls } = recorder();
  await writeResponse(res, text);
  assert.deepEqual(calls.writes, []);
  assert.deepEqual(calls.ends, ['{"q":"brot","total":1}']);
  assert.equal(text.bodyUsed, false);
  assert.equal(calls.head![1]['content-type'], 'application/json; charset=utf-8');

  const bytes = new TextEncoder().encode('{"a":1}');
  const made = bytesResponse(bytes, { status: 200, headers: { 'content-length': String(bytes.byteLength) } });
  const second = recorder();
  await writeResponse(second.res, made);
  assert.deepEqual(second.calls.writes, []);
  assert.deepEqual(second.calls.ends, [bytes]);
});

test('any other response, or one whose body was read, is streamed as before', async () => {
  const other = new Response('streamed');
  const { res, calls } = recorder();
  await writeResponse(res, other);
  assert.equal(new TextDecoder().decode(calls.writes[0]), 'streamed');
  assert.deepEqual(calls.ends, [undefined]);

  const read = json({ a: 1 });
  assert.equal(await read.text(), '{"a":1}');
  assert.equal(madeFrom(read), undefined);
});
