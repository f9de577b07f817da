// `npm run chain`: a local chain (anvil) with the FolioToken deployed and a funded payer, and the
// server taking paid contact on it for the site and the sandbox. Ctrl-C stops both. Once the server
// listens, the chain's state (its RPC URL, the payer, the server's address, the inboxes) is written
// where `npm run pay` and `npm run inbox` read it (src/contact/local-chain-state.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { DIST } from '../src/artefact/roots.ts';
import { contactEnv, devKey, startLocalPayments } from '../src/contact/local-chain.ts';
import { localChainDir, removeLocalChainState, writeLocalChainState } from '../src/contact/local-chain-state.ts';

const CHAIN_PORT = Number(process.env.CHAIN_PORT ?? 8545);
const DATA = localChainDir();
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
const inboxes = { main: `${DATA}/contact.sqlite`, sandbox: `${DATA}/sandbox-contact.sqlite` };

const server = spawn(process.execPath, ['src/server/main.ts'], {
  stdio: ['inherit', 'pipe', 'inherit'],
  env: {
    ...process.env,
    ...contactEnv('CONTACT_', chain, { relayer: 1, payTo: 2, database: inboxes.main }),
    ...contactEnv('SANDBOX_CONTACT_', chain, { relayer: 3, payTo: 4, database: inboxes.sandbox }),
  },
});

async function stop(code: number) {
  removeLocalChainState();
  server.kill('SIGTERM');
  await chain.stop();
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop(0));
server.once('exit', (code) => void stop(code ?? 1));

// The server's own line says where it listens (PORT, or the free port PORT=0 chose): that address,
// not a guess from this process's PORT, is what pay and inbox are told.
let announced = false;
let pending = '';
server.stdout!.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (announced) return;
  pending += chunk.toString();
  const url = /Folio listening on (http:\/\/\S+)/.exec(pending)?.[1];
  if (!url) return;
  announced = true;
  pending = '';
  void writeLocalChainState({ pid: process.pid, rpcUrl: chain.rpcUrl, token: chain.token, payerKey, url, inboxes }).then(() =>
    console.log(`
Local chain ${chain.rpcUrl} (chain id ${chain.chainId}), FolioToken (FUSD, 6 decimals) at ${chain.token}
Payer ${payer} holds 100 FUSD; its private key (a public anvil test key):
  ${payerKey}
Paid contact is on for the site and the sandbox, served on ${url}. In another shell:
  npm run pay -- "Hello"              # pays $0.10 and sends a message to ${url}/contact/send
  npm run pay -- --sandbox "Hello"    # the same on /sandbox/contact/send
  npm run inbox -- list               # the messages stored in ${inboxes.main}
`),
  );
});
