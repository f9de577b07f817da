// `npm run chain`: a local chain (anvil) with the FolioToken deployed and a funded payer, and the
// server taking paid contact on it for the site and the sandbox. Ctrl-C stops both.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { DIST } from '../src/artefact/roots.ts';
import { contactEnv, devKey, LOCAL_CHAIN_STATE, startLocalPayments } from '../src/contact/local-chain.ts';

const CHAIN_PORT = Number(process.env.CHAIN_PORT ?? 8545);
const DATA = 'data/local-chain';
// anvil dev accounts: 0 deploys the token, 1 and 2 relay and receive for the site, 3 and 4 for the sandbox, 5 pays.
const PAYER = 5;
const PAYER_FUNDS = 100_000_000n; // 100 FUSD

if (!existsSync(join(DIST.bundle('main'), 'catalog.json'))) {
  console.log('No build yet: running npm run build first.');
  const build = spawnSync(process.execPath, ['scripts/build.ts'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const chain = await startLocalPayments(CHAIN_PORT);
const payerKey = devKey(PAYER);
const payer = privateKeyToAccount(payerKey).address;
await chain.fund(payer, PAYER_FUNDS);
// A new chain each time: messages paid on the previous one would refer to a chain that is gone.
await rm(DATA, { recursive: true, force: true });
await mkdir(DATA, { recursive: true });
await writeFile(LOCAL_CHAIN_STATE, JSON.stringify({ rpcUrl: chain.rpcUrl, token: chain.token, payerKey }, null, 2));

const server = spawn(process.execPath, ['src/server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    ...contactEnv('CONTACT_', chain, { relayer: 1, payTo: 2, database: `${DATA}/contact.sqlite` }),
    ...contactEnv('SANDBOX_CONTACT_', chain, { relayer: 3, payTo: 4, database: `${DATA}/sandbox-contact.sqlite` }),
  },
});

console.log(`
Local chain ${chain.rpcUrl} (chain id ${chain.chainId}), FolioToken (FUSD, 6 decimals) at ${chain.token}
Payer ${payer} holds 100 FUSD; its private key (a public anvil test key):
  ${payerKey}
Paid contact is on for the site and the sandbox. In another shell:
  npm run pay -- "Hello"              # pays $0.10 and sends a message to /contact/send
  npm run pay -- --sandbox "Hello"    # the same on /sandbox/contact/send
  CONTACT_DB=${DATA}/contact.sqlite npm run inbox -- list
`);

async function stop(code: number) {
  server.kill('SIGTERM');
  await chain.stop();
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop(0));
server.once('exit', (code) => void stop(code ?? 1));
