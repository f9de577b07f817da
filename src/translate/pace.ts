/**
 * What one provider may be sent in a minute (`rates:` in content/translation.yaml): requests and
 * characters. A rolling minute of what was sent says how long the next request must wait, so a run
 * stays under a plan's limits instead of learning them from 429s; it also keeps the totals the
 * command's summary prints.
 */
export interface Rate {
  requestsPerMinute?: number;
  charactersPerMinute?: number;
}

const MINUTE = 60_000;

export class Pace {
  readonly rate: Rate;
  private sent: { at: number; chars: number }[] = [];
  requests = 0;
  characters = 0;
  waitedMs = 0;

  constructor(rate: Rate = {}) {
    this.rate = rate;
  }

  /** Milliseconds to wait at `now` before a request of `chars` characters fits in the rolling minute. */
  delay(chars: number, now: number): number {
    this.sent = this.sent.filter((s) => s.at > now - MINUTE);
    const { requestsPerMinute: rpm, charactersPerMinute: cpm } = this.rate;
    let wait = 0;
    if (rpm !== undefined && this.sent.length >= rpm) wait = Math.max(wait, this.sent[this.sent.length - rpm]!.at + MINUTE - now);
    if (cpm !== undefined) {
      // The oldest requests that must leave the window before this one's characters fit (a request over the whole budget goes alone).
      let used = this.sent.reduce((n, s) => n + s.chars, 0);
      for (const s of this.sent) {
        if (used + chars <= cpm || used === 0) break;
        used -= s.chars;
        wait = Math.max(wait, s.at + MINUTE - now);
      }
    }
    return wait;
  }

  record(chars: number, now: number, waitedMs = 0): void {
    this.sent.push({ at: now, chars });
    this.requests++;
    this.characters += chars;
    this.waitedMs += waitedMs;
  }
}
