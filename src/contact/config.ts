import { parseMoneyString } from '@x402/core/utils';
import { getAddress, isAddress, type Address, type Hex } from 'viem';
import type { MailSettings } from './delivery.ts';

/** One content root's paid-contact settings (CONTACT_* for the site, SANDBOX_CONTACT_* for the sandbox). */
export interface ContactSettings {
  rpcUrl: string;
  chainId: number;
  asset: Address;
  payTo: Address;
  relayerKey: Hex;
  /** In dollars, without the sign: "0.10". */
  price: string;
  /** SQLite file of the inbox. */
  database: string;
}

export interface ContactConfig {
  main?: ContactSettings;
  sandbox?: ContactSettings;
  /** Delivery of the site's messages by e-mail. */
  mail?: MailSettings;
  /** PostgreSQL for every root's inbox (DATABASE_URL), shared by processes and machines; else each root's SQLite file. */
  databaseUrl?: string;
  /** Tests only: the server exits right after a settlement, before storing its completion. */
  crashAfter?: 'settle';
  /** Why a partly configured contact stays off, for the start-up log. */
  notes: string[];
}

/** Local development chains: anvil and hardhat (31337), geth --dev and ganache (1337). */
export const LOCAL_TEST_CHAIN_IDS: readonly number[] = [31337, 1337];

export const DEFAULT_DATABASES = { main: 'data/contact.sqlite', sandbox: 'data/sandbox-contact.sqlite' } as const;

const REQUIRED = ['RPC_URL', 'CHAIN_ID', 'TOKEN_ADDRESS', 'PAY_TO', 'RELAYER_KEY'] as const;

function readSettings(env: NodeJS.ProcessEnv, prefix: string, defaultDatabase: string, notes: string[]): ContactSettings | undefined {
  const get = (name: string) => env[prefix + name] || undefined;
  const enabled = get('ENABLED');
  if (enabled !== undefined && /^(0|false|off|no)$/i.test(enabled)) return undefined;
  const missing = REQUIRED.filter((n) => !get(n));
  if (missing.length === REQUIRED.length) return undefined;
  if (missing.length > 0) {
    notes.push(`Paid contact (${prefix}*) is off until ${missing.map((n) => prefix + n).join(', ')} ${missing.length > 1 ? 'are' : 'is'} set.`);
    return undefined;
  }
  const fail = (name: string, expected: string): never => {
    throw new Error(`${prefix}${name} must be ${expected}, got "${get(name)}"`);
  };
  const address = (name: string): Address => {
    const raw = get(name)!;
    return isAddress(raw, { strict: false }) ? getAddress(raw) : fail(name, 'a 0x-prefixed 20-byte address');
  };
  const rpcUrl = get('RPC_URL')!;
  if (!/^https?:\/\//i.test(rpcUrl) || !URL.canParse(rpcUrl)) fail('RPC_URL', 'an http(s) URL');
  const chainId = Number(get('CHAIN_ID'));
  if (!Number.isSafeInteger(chainId) || chainId <= 0) fail('CHAIN_ID', 'a positive integer');
  const relayerKey = get('RELAYER_KEY')!;
  if (!/^0x[0-9a-fA-F]{64}$/.test(relayerKey)) fail('RELAYER_KEY', 'a 0x-prefixed 32-byte hex private key');
  let price: string;
  try {
    price = parseMoneyString(get('PRICE') ?? '0.10');
  } catch {
    return fail('PRICE', 'a dollar amount such as 0.10 or $0.10');
  }
  if (!/[1-9]/.test(price)) fail('PRICE', 'above zero');
  return {
    rpcUrl,
    chainId,
    asset: address('TOKEN_ADDRESS'),
    payTo: address('PAY_TO'),
    relayerKey: relayerKey as Hex,
    price,
    database: get('DB') ?? defaultDatabase,
  };
}

export function readContactConfig(env: NodeJS.ProcessEnv): ContactConfig {
  const notes: string[] = [];
  const main = readSettings(env, 'CONTACT_', DEFAULT_DATABASES.main, notes);
  const sandbox = readSettings(env, 'SANDBOX_CONTACT_', DEFAULT_DATABASES.sandbox, notes);
  if (sandbox && !LOCAL_TEST_CHAIN_IDS.includes(sandbox.chainId)) {
    throw new Error(`SANDBOX_CONTACT_CHAIN_ID ${sandbox.chainId} is not a local test chain (${LOCAL_TEST_CHAIN_IDS.join(', ')}): the sandbox never settles on a real network.`);
  }
  const smtpUrl = env.CONTACT_SMTP_URL || undefined;
  const to = env.CONTACT_MAIL_TO || undefined;
  if (Boolean(smtpUrl) !== Boolean(to)) notes.push('E-mail delivery is off until both CONTACT_SMTP_URL and CONTACT_MAIL_TO are set.');
  return {
    main,
    sandbox,
    mail: smtpUrl && to ? { smtpUrl, to, from: env.CONTACT_MAIL_FROM || 'Folio <folio@localhost>' } : undefined,
    crashAfter: env.CONTACT_TEST_CRASH_AFTER === 'settle' ? 'settle' : undefined,
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    notes,
  };
}
