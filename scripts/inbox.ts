// `npm run inbox -- list|export [--sandbox] [--db FILE]`: the paid messages in the inbox.
// list prints a table; export writes every message as one JSON object per line (JSON Lines).
// The file is --db, else CONTACT_DB (SANDBOX_CONTACT_DB with --sandbox), else the running `npm run chain`'s
// inbox, else the default under data/.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DATABASES } from '../src/contact/config.ts';
import { sqliteInbox, type StoredMessage } from '../src/contact/inbox.ts';
import { localChainDir, runningLocalChain } from '../src/contact/local-chain-state.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { sandbox: { type: 'boolean', default: false }, db: { type: 'string' } },
});
const command = positionals[0] ?? 'list';
if (command !== 'list' && command !== 'export') {
  console.error('Usage: npm run inbox -- list|export [--sandbox] [--db FILE]');
  process.exit(2);
}
const root = values.sandbox ? 'sandbox' : 'main';
const file = values.db ?? ((values.sandbox ? process.env.SANDBOX_CONTACT_DB : process.env.CONTACT_DB) || runningLocalChain()?.inboxes[root] || DEFAULT_DATABASES[root]);
if (!existsSync(file)) {
  // A stopped chain's inbox stays in its folder until the next `npm run chain`.
  const chainInbox = join(localChainDir(), `${values.sandbox ? 'sandbox-' : ''}contact.sqlite`);
  console.error(`No inbox at ${file}: no paid message has been stored there.${!values.db && existsSync(chainInbox) ? ` (The last npm run chain's inbox: add --db ${chainInbox})` : ''}`);
  process.exit(command === 'list' ? 0 : 1);
}
const inbox = sqliteInbox(file, { readOnly: true });
const messages = await inbox.list();
await inbox.close();

function exported(m: StoredMessage) {
  return {
    id: m.id,
    state: m.state,
    created_at: m.createdAt,
    settled_at: m.settledAt ?? null,
    ...m.message,
    payer: m.permit.owner,
    amount: m.permit.value,
    network: m.network,
    asset: m.asset,
    pay_to: m.payTo,
    transaction: m.answer?.body.txHash ?? null,
    delivered_at: m.delivery.deliveredAt ?? null,
  };
}

if (command === 'export') {
  for (const m of messages) process.stdout.write(`${JSON.stringify(exported(m))}\n`);
} else {
  const pending = messages.filter((m) => m.state === 'pending').length;
  console.log(`${messages.length} message(s) in ${file}${pending ? `, ${pending} pending (payment not settled yet: the payer's retry finishes it)` : ''}`);
  for (const m of messages) {
    const preview = m.message.body.replace(/\s+/g, ' ').slice(0, 60);
    const delivered = m.delivery.deliveredAt ? 'delivered' : m.delivery.error ? `delivery failed x${m.delivery.attempts}` : '';
    console.log(`#${m.id} ${m.state.padEnd(7)} ${m.createdAt} ${m.message.sender}${m.message.reply_to ? ` <${m.message.reply_to}>` : ''} ${delivered}`);
    console.log(`    ${preview}${m.message.body.length > 60 ? '…' : ''}`);
    if (m.answer) console.log(`    paid ${m.permit.value} by ${m.permit.owner}, tx ${m.answer.body.txHash}`);
  }
}
