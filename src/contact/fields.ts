import { sha256, stringToBytes } from 'viem';

/** The fields of a paid message: described in the 402 and 422 bodies, checked before anything is charged. */
export interface ContactMessage {
  sender: string;
  body: string;
  reply_to?: string;
  callback?: string;
}

export interface FieldSpec {
  name: keyof ContactMessage;
  type: 'string';
  format?: 'email' | 'uri';
  required: boolean;
  maxLength: number;
  description: string;
}

export const FIELDS: readonly FieldSpec[] = [
  { name: 'sender', type: 'string', required: true, maxLength: 200, description: 'Who is writing: a name or the identifier of the agent.' },
  { name: 'body', type: 'string', required: true, maxLength: 20_000, description: 'The message to the site owner (plain text).' },
  { name: 'reply_to', type: 'string', format: 'email', required: false, maxLength: 254, description: 'An e-mail address for a reply.' },
  { name: 'callback', type: 'string', format: 'uri', required: false, maxLength: 2048, description: 'An absolute http(s) URI where a reply may be sent.' },
];

// Deliberately loose (RFC 5322 allows far more): one @, no spaces, a dot in the domain.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

function formatProblem(spec: FieldSpec, value: string): string | undefined {
  if (spec.format === 'email' && !EMAIL.test(value)) return `${spec.name} must be an e-mail address`;
  if (spec.format === 'uri' && !(/^https?:\/\//i.test(value) && URL.canParse(value))) return `${spec.name} must be an absolute http(s) URI`;
  return undefined;
}

/** The message, or every problem with it in one sentence. Unknown fields are ignored; null means absent. */
export function validateMessage(input: unknown): { message: ContactMessage } | { error: string } {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { error: 'The body must be a JSON object with "sender" and "body".' };
  const data = input as Record<string, unknown>;
  const message: Record<string, string> = {};
  const problems: string[] = [];
  for (const spec of FIELDS) {
    const raw = data[spec.name] ?? undefined;
    if (raw === undefined) {
      if (spec.required) problems.push(`${spec.name} is required`);
      continue;
    }
    if (typeof raw !== 'string') {
      problems.push(`${spec.name} must be a string`);
      continue;
    }
    // Free text keeps its spacing; the one-line fields are trimmed.
    const value = spec.name === 'body' ? raw : raw.trim();
    if (value.trim() === '') {
      if (spec.required) problems.push(`${spec.name} must not be blank`);
      continue;
    }
    if ([...value].length > spec.maxLength) {
      problems.push(`${spec.name} is longer than ${spec.maxLength} characters`);
      continue;
    }
    const bad = formatProblem(spec, value);
    if (bad) problems.push(bad);
    else message[spec.name] = value;
  }
  if (problems.length > 0) return { error: `Invalid message: ${problems.join('; ')}.` };
  return { message: message as unknown as ContactMessage };
}

/** Identifies a message's content, so a retry with the same permit but other words is told apart. */
export function messageDigest(message: ContactMessage): string {
  const canonical = JSON.stringify(FIELDS.map((f) => message[f.name] ?? null));
  return sha256(stringToBytes(canonical));
}
