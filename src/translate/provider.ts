/**
 * A machine translation engine behind one interface: which targets it serves (directly or through
 * a pivot language), how much one request may carry, and a batch of tagged segments in, the same
 * number out, in order.
 */
export type Support = 'direct' | 'pivot' | false;

export interface Provider {
  /** The name on the command line and in content/translation.yaml: deepl, google, libretranslate, openai, apertium. */
  id: string;
  /** Model or engine version: part of every memory key, so an upgraded engine translates again. */
  version: string;
  /**
   * Asks the engine what this account or instance serves (DeepL's language list, a LibreTranslate
   * server's languages and limits), once, before supports() is consulted and before any text is
   * sent. Engines that know their languages offline have none.
   */
  prepare?(): Promise<void>;
  supports(lang: string): Support;
  limits: { segments: number; chars: number };
  /**
   * `note` says why an earlier translation of these segments was refused, for an engine that can be
   * told (a language model); the others ignore it.
   */
  translate(segments: readonly string[], lang: string, note?: string, context?: readonly (SegmentContext | undefined)[]): Promise<string[]>;
  /** A language model: it is offered the memory's fuzzy matches as examples (SegmentContext.similar). */
  readsExamples?: boolean;
  /** The engine is given the glossary's fixed translations its own way (DeepL's glossaries, a model's prompt); the others get them as placeholders (fixed-terms.ts). */
  takesFixedTerms?: boolean;
  /** Tokens billed so far, for the engines billed by tokens (language models): the cost report reads it. */
  usage?: { inputTokens: number; outputTokens: number };
}

/**
 * What an engine that can read it is told beside a segment, never translated itself: the whole
 * paragraph a sentence sent alone comes from, and a similar segment's translation from the memory.
 */
export interface SegmentContext {
  paragraph?: string;
  similar?: { source: string; translation: string; similarity: number };
}

/**
 * The run must stop at once, keeping what it has: the provider refuses more work until its quota
 * is raised, asks for a wait beyond the cap, or the run's retry budget is spent.
 */
export class QuotaError extends Error {}

/** Worth trying again later (429, 5xx, a lost connection), after `retryAfterMs` when the provider said. */
export class RetryableError extends Error {
  readonly retryAfterMs?: number;
  constructor(message: string, retryAfterMs?: number) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}

/** The provider cannot be used as configured (a missing key, an unsupported language): one line, before anything is sent. */
export class SetupError extends Error {}

/** `<id>:<version>`, as a written translation's `provider` records it. */
export const providerLabel = (p: Provider) => `${p.id}:${p.version}`;

/** Batches of segments within a provider's limits, in order. */
export function batches(segments: readonly string[], limits: Provider['limits']): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let chars = 0;
  for (const [i, s] of segments.entries()) {
    if (current.length && (current.length >= limits.segments || chars + s.length > limits.chars)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(i);
    chars += s.length;
  }
  if (current.length) out.push(current);
  return out;
}
