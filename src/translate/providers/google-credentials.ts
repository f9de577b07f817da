import { readFileSync } from 'node:fs';
import { GoogleAuth, JWT } from 'google-auth-library';
import { RetryableError, SetupError } from '../provider.ts';

/**
 * Google's usual credential and project variables, read through Google's own `google-auth-library`:
 * - `GOOGLE_ACCESS_TOKEN`: an OAuth access token as it is (`gcloud auth print-access-token`; about an hour);
 * - else `GOOGLE_APPLICATION_CREDENTIALS`: a key file. A service-account key is a JWT signed RS256
 *   with its private key, exchanged at the file's `token_uri` for an access token that the library
 *   renews before it expires; any other kind of file (`authorized_user`, `external_account`) is
 *   the library's to read.
 * The project is `GOOGLE_CLOUD_PROJECT`, else `GCLOUD_PROJECT`, else the key file's `project_id`.
 */

/** Cloud Translation's own scope: the narrowest that calls translateText. */
const SCOPE = 'https://www.googleapis.com/auth/cloud-translation';
/** Where google-auth-library always exchanges a service account's JWT; a key file's `token_uri` is the same for Google's keys. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const TOKEN_HINT = 'export GOOGLE_ACCESS_TOKEN="$(gcloud auth print-access-token)"';

export interface GoogleCredentials {
  project: string;
  /** The headers that authorise a request: a bearer token (fetched, and renewed, when a key file gives it) and the quota project. */
  headers(): Promise<Record<string, string>>;
  /** Which variable to check when Google refuses the credential. */
  variable: string;
}

interface KeyFile {
  type?: string;
  project_id?: string;
  quota_project_id?: string;
  client_email?: string;
  private_key?: string;
  private_key_id?: string;
  token_uri?: string;
}

function readKeyFile(path: string): KeyFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new SetupError(`google: GOOGLE_APPLICATION_CREDENTIALS names ${path}, which cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    const key = JSON.parse(text) as unknown;
    if (typeof key === 'object' && key !== null && !Array.isArray(key)) return key as KeyFile;
  } catch {
    // Reported below with the rest.
  }
  throw new SetupError(`google: GOOGLE_APPLICATION_CREDENTIALS names ${path}, which is not a JSON key file`);
}

/** A service account's JWT client, exchanging at the key file's token_uri (aud and address) rather than the library's fixed one. */
function serviceAccount(key: KeyFile, path: string): JWT {
  if (!key.client_email || !key.private_key) throw new SetupError(`google: the service-account key ${path} lacks client_email or private_key`);
  const tokenUri = key.token_uri || GOOGLE_TOKEN_URL;
  const client = new JWT({ email: key.client_email, key: key.private_key, keyId: key.private_key_id, scopes: [SCOPE], additionalClaims: { aud: tokenUri } });
  client.transporter.interceptors.request.add({
    resolved: async (config) => {
      if (config.url.href === GOOGLE_TOKEN_URL) config.url = new URL(tokenUri);
      return config;
    },
  });
  return client;
}

/** The token endpoint's refusal (a bad key, a revoked account) is the author's to fix; an outage is tried again. */
function tokenFailure(e: unknown, path: string): Error {
  const status = (e as { status?: number; response?: { status?: number } }).response?.status ?? (e as { status?: number }).status;
  const said = (e as Error).message;
  if (status !== undefined && status >= 400 && status < 500) return new SetupError(`google: the credential in GOOGLE_APPLICATION_CREDENTIALS (${path}) was refused: ${said}`);
  return new RetryableError(`google: no access token for GOOGLE_APPLICATION_CREDENTIALS (${path}): ${said}`);
}

export function googleCredentials(env: NodeJS.ProcessEnv): GoogleCredentials {
  const token = env.GOOGLE_ACCESS_TOKEN?.trim();
  const path = env.GOOGLE_APPLICATION_CREDENTIALS?.trim();
  if (!token && !path) throw new SetupError(`google needs a credential: GOOGLE_APPLICATION_CREDENTIALS (the path of a service-account key file) or GOOGLE_ACCESS_TOKEN (an OAuth access token: ${TOKEN_HINT})`);
  const key = token ? {} : readKeyFile(path!);
  const project = env.GOOGLE_CLOUD_PROJECT?.trim() || env.GCLOUD_PROJECT?.trim() || key.project_id;
  if (!project) throw new SetupError('google needs a project: GOOGLE_CLOUD_PROJECT (or GCLOUD_PROJECT), the ID of the Google Cloud project with the Cloud Translation API enabled');
  // User credentials (gcloud auth) bill the quota to a project only when it is named; a service account bills its own.
  const quota: Record<string, string> = key.type === 'service_account' ? {} : { 'x-goog-user-project': key.quota_project_id || project };
  if (token) return { project, variable: `GOOGLE_ACCESS_TOKEN (an access token lasts about an hour: ${TOKEN_HINT})`, headers: async () => ({ authorization: `Bearer ${token}`, ...quota }) };

  const client = key.type === 'service_account' ? serviceAccount(key, path!) : new GoogleAuth({ keyFilename: path, scopes: [SCOPE] });
  return {
    project,
    variable: `GOOGLE_APPLICATION_CREDENTIALS (${path})`,
    async headers() {
      let access: string | null | undefined;
      try {
        access = await client.getAccessToken().then((t) => (t === null || typeof t !== 'object' ? t : t.token));
      } catch (e) {
        throw tokenFailure(e, path!);
      }
      if (!access) throw new SetupError(`google: the credential in GOOGLE_APPLICATION_CREDENTIALS (${path}) gave no access token`);
      return { authorization: `Bearer ${access}`, ...quota };
    },
  };
}
