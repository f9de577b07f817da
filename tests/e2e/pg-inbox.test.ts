import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pgInbox } from '../../src/contact/pg-inbox.ts';
import type { NewMessage } from '../../src/contact/inbox.ts';
import { postgresBin, startPostgres } from '../helpers/postgres.ts';

/** The inbox on a real PostgreSQL, as several processes starting at once would use it. */
const bin = postgresBin();
let postgres: Awaited<ReturnType<typeof startPostgres>>;

const entry = (key: string): NewMessage => ({
  key,
  message: { sender: 's', body: 'b' },
  digest: 'd',
  network: 'eip155:31337',
  asset: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  payTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  permit: { owner: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', spender: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '1', nonce: '0', deadline: '1', signature: '0x00' },
});

describe('inbox on PostgreSQL', { skip: bin ? false : 'PostgreSQL is not installed: apt-get install -y postgresql' }, () => {
  before(async () => {
    postgres = await startPostgres(bin!);
  });
  after(() => postgres?.stop());

  test('eight processes starting together all make or find the schema, and a key is reserved once', async () => {
    for (const round of [1, 2, 3]) {
      const inboxes = Array.from({ length: 8 }, () => pgInbox(postgres.url, `race_${round}`));
      const reserved = await Promise.all(inboxes.map((inbox) => inbox.reserve(entry('same-key'))));
      assert.equal(new Set(reserved.map((r) => r.id)).size, 1, `round ${round}: one row for one key`);
      assert.equal((await inboxes[0]!.list()).length, 1);
      await Promise.all(inboxes.map((inbox) => inbox.close()));
    }
  });

  test('unfinished: the pending rows whose transfer hash is recorded (what a server completes at start), not those without one or settled', async () => {
    const inbox = pgInbox(postgres.url, 'unfinished');
    try {
      for (const key of ['no-tx', 'transfer-sent', 'permit-only']) await inbox.reserve(entry(key));
      await inbox.recordTransaction('transfer-sent', 'transfer', `0x${'cc'.repeat(32)}`);
      await inbox.recordTransaction('permit-only', 'permit', `0x${'dd'.repeat(32)}`);
      assert.deepEqual((await inbox.unfinished()).map((m) => [m.key, m.transferTx]), [['transfer-sent', `0x${'cc'.repeat(32)}`]]);
    } finally {
      await inbox.close();
    }
  });
});
