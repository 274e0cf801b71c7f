/**
 * Secrets never reach a log line (docs/tls.md): a Logger decorator that replaces
 * every registered secret (the access token, hub connection tokens) in the
 * message and in string fields before the line reaches the host's logger.
 * URL-encoded forms are redacted too, since tokens travel in query strings.
 */
import type { LogFields, Logger, LogLevel } from '../ports.js';

/** What a secret is replaced with. */
export const Redacted = '[redacted]';

/** Secrets shorter than this are not treated as secrets (they would blank common words). */
const minSecretLength = 6;

export class RedactingLogger implements Logger {
  #secrets: string[] = [];
  readonly #inner: Logger;

  constructor(inner: Logger) {
    this.#inner = inner;
  }

  /** Registers a secret (and its URL-encoded form); empty or short values are ignored. */
  addSecret(secret: string | undefined): void {
    if (secret === undefined || secret.length < minSecretLength) return;
    // Each form once, longest first, so a secret that contains another is replaced whole.
    this.#secrets = [...new Set([...this.#secrets, secret, encodeURIComponent(secret)])].sort(
      (a, b) => b.length - a.length,
    );
  }

  /** Forgets a secret (e.g. a used connection token). */
  removeSecret(secret: string): void {
    const encoded = encodeURIComponent(secret);
    this.#secrets = this.#secrets.filter((s) => s !== secret && s !== encoded);
  }

  /** `text` with every registered secret replaced. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.split(secret).join(Redacted);
    }
    return out;
  }

  log(level: LogLevel, message: string, fields?: LogFields): void {
    let safe = fields;
    if (fields !== undefined && this.#secrets.length > 0) {
      const copy: Record<string, LogFields[string]> = (safe = {});
      for (const [name, value] of Object.entries(fields))
        copy[name] = typeof value === 'string' ? this.redact(value) : value;
    }
    try {
      this.#inner.log(level, this.redact(message), safe);
    } catch {
      // A logger must never throw into the agent.
    }
  }
}
