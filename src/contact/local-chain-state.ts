import { existsSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Hex } from 'viem';

/**
 * What a running `npm run chain` tells `npm run pay` and `npm run inbox`: the chain's RPC URL, the
 * payer's key, the address its server answers on and the inboxes it writes. One file in the chain's
 * folder (`FOLIO_CHAIN_DIR`, default data/local-chain), read only while the process that wrote it
 * lives, so a chain stopped (even by kill -9) never sends a payment or a reader to a port nothing serves.
 */
export interface LocalChainState {
  pid: number;
  rpcUrl: string;
  token: string;
  payerKey: Hex;
  /** The origin the chain's server listens on, as it announced it (PORT=0 included). */
  url: string;
  inboxes: { main: string; sandbox: string };
}

const PROJECT = resolve(import.meta.dirname, '../..');
/** The chain's folder: its inboxes and its state, cleared at every start (the chain is new). */
export const localChainDir = (env: NodeJS.ProcessEnv = process.env) => resolve(PROJECT, env.FOLIO_CHAIN_DIR || 'data/local-chain');
const stateFile = (env: NodeJS.ProcessEnv) => join(localChainDir(env), 'chain.json');

export async function writeLocalChainState(state: LocalChainState, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await writeFile(stateFile(env), `${JSON.stringify(state, null, 2)}\n`);
}

export function removeLocalChainState(env: NodeJS.ProcessEnv = process.env): void {
  rmSync(stateFile(env), { force: true });
}

/** The running chain's state, or undefined when none runs (no file, or its process is gone). */
export function runningLocalChain(env: NodeJS.ProcessEnv = process.env): LocalChainState | undefined {
  const file = stateFile(env);
  if (!existsSync(file)) return undefined;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as LocalChainState;
    process.kill(state.pid, 0);
    return state;
  } catch {
    return undefined;
  }
}
