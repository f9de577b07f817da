import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createWalletClient, getAddress, http, nonceManager, toHex, type Abi, type Address, type Hex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { TOKEN_ABI } from './token-abi.ts';

/**
 * A local chain for users (`npm run chain`) and tests: anvil from npm, the FolioToken compiled from
 * OpenZeppelin with solc, deployed and funded. Never used by the server itself.
 */
const require = createRequire(import.meta.url);
export const LOCAL_CHAIN_ID = 31337;
const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN_SOURCE = join(PROJECT, 'contracts/FolioToken.sol');
const CACHE_DIR = join(PROJECT, '.folio-cache/contracts');
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** anvil's well-known development accounts (each holds 10,000 test ether). */
export function devKey(index: number): Hex {
  return toHex(mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index }).getHdKey().privateKey!);
}

export interface Anvil {
  rpcUrl: string;
  stop(): Promise<void>;
}

function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const name = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  try {
    return require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/${name}`);
  } catch {
    throw new Error(`No anvil binary for ${process.platform}-${process.arch}: @foundry-rs/anvil has no package for this platform.`);
  }
}

/** Starts anvil on 127.0.0.1 (port 0: a free one) and resolves once it listens. */
export async function startAnvil(port = 0): Promise<Anvil> {
  const child = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(LOCAL_CHAIN_ID)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`anvil did not start:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /Listening on ([\d.]+:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with ${code}:\n${output}`));
    });
  });
  // Keep draining its log so a full pipe never blocks it.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    rpcUrl,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export interface TokenArtifact {
  abi: Abi;
  bytecode: Hex;
}

/** Compiles contracts/FolioToken.sol with solc (evmVersion cancun); the artifact is cached by source and versions. */
export async function compileToken(): Promise<TokenArtifact> {
  const source = await readFile(TOKEN_SOURCE, 'utf8');
  const settings = { evmVersion: 'cancun', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } };
  const versions = [require('solc/package.json').version, require('@openzeppelin/contracts/package.json').version];
  const hash = createHash('sha256').update(JSON.stringify([source, settings, versions])).digest('hex').slice(0, 16);
  const cached = join(CACHE_DIR, `FolioToken-${hash}.json`);
  try {
    return JSON.parse(await readFile(cached, 'utf8')) as TokenArtifact;
  } catch {
    // Not compiled yet for this source: compile below.
  }
  const solc = (await import('solc')).default;
  // Imports are package paths (@openzeppelin/contracts/...), resolved in the node_modules that holds it.
  const modules = join(dirname(require.resolve('@openzeppelin/contracts/package.json')), '../..');
  const input = { language: 'Solidity', sources: { 'FolioToken.sol': { content: source } }, settings };
  const findImports = (path: string) => {
    try {
      return { contents: readFileSync(join(modules, path), 'utf8') };
    } catch {
      return { error: `not found: ${path}` };
    }
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = out.contracts['FolioToken.sol']!.FolioToken!;
  const artifact: TokenArtifact = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  await mkdir(CACHE_DIR, { recursive: true });
  await writeFile(cached, JSON.stringify(artifact));
  return artifact;
}

export interface LocalPayments {
  rpcUrl: string;
  chainId: number;
  token: Address;
  /** Sends `amount` atomic units of the token from the deployer's supply. */
  fund(to: Address, amount: bigint): Promise<void>;
  stop(): Promise<void>;
}

/** 1,000,000 tokens of 6 decimals, all to the deployer, who funds payers from it. */
const SUPPLY = 1_000_000n * 10n ** 6n;

/** anvil + the token deployed by dev account 0. */
export async function startLocalPayments(port = 0): Promise<LocalPayments> {
  const anvil = await startAnvil(port);
  try {
    const artifact = await compileToken();
    const deployer = privateKeyToAccount(devKey(0), { nonceManager });
    const transport = http(anvil.rpcUrl);
    const chain = {
      id: LOCAL_CHAIN_ID,
      name: 'anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    } as const;
    const wallet = createWalletClient({ account: deployer, chain, transport });
    const client = createPublicClient({ chain, transport, pollingInterval: 100 });
    const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: ['Folio Dollar', 'FUSD', deployer.address, SUPPLY] });
    const token = getAddress((await client.waitForTransactionReceipt({ hash })).contractAddress!);
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: LOCAL_CHAIN_ID,
      token,
      async fund(to, amount) {
        const tx = await wallet.writeContract({ address: token, abi: TOKEN_ABI, functionName: 'transfer', args: [to, amount] });
        await client.waitForTransactionReceipt({ hash: tx });
      },
      stop: () => anvil.stop(),
    };
  } catch (e) {
    await anvil.stop();
    throw e;
  }
}

/** The CONTACT_* (or SANDBOX_CONTACT_*) variables that point a root at this chain, with dev accounts as relayer and payee. */
export function contactEnv(prefix: 'CONTACT_' | 'SANDBOX_CONTACT_', chain: LocalPayments, roles: { relayer: number; payTo: number; database: string }): Record<string, string> {
  return {
    [`${prefix}RPC_URL`]: chain.rpcUrl,
    [`${prefix}CHAIN_ID`]: String(chain.chainId),
    [`${prefix}TOKEN_ADDRESS`]: chain.token,
    [`${prefix}PAY_TO`]: privateKeyToAccount(devKey(roles.payTo)).address,
    [`${prefix}RELAYER_KEY`]: devKey(roles.relayer),
    [`${prefix}DB`]: roles.database,
  };
}
