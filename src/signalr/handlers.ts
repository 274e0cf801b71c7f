/**
 * Server-to-client invocation handlers (spec 4.8, 6), by target, matched
 * case-insensitively like the official clients. Every handler call is wrapped:
 * a throwing or rejecting handler is logged and cannot break the connection
 * (STYLE.md practice 10). A target nobody handles is logged once (bounded).
 */
import type { Logger } from '../ports.js';

/** Receives an Invocation's `arguments` (validated as an array, contents unknown). */
export type ServerHandler = (args: readonly unknown[]) => void | Promise<void>;

/** Targets remembered as "already logged"; beyond this, unknown targets are only counted. */
const maxLoggedTargets = 32;

export class HandlerRegistry {
  #handlers = new Map<string, ServerHandler[]>();
  #logged = new Set<string>();
  /** Invocations whose target had no handler. */
  unhandled = 0;

  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Adds a handler for `target`; returns a function that removes it. */
  on(target: string, handler: ServerHandler): () => void {
    const key = target.toLowerCase();
    const list = this.#handlers.get(key) ?? [];
    list.push(handler);
    this.#handlers.set(key, list);
    return () => {
      const current = this.#handlers.get(key);
      if (current === undefined) return;
      const i = current.indexOf(handler);
      if (i !== -1) current.splice(i, 1);
      if (current.length === 0) this.#handlers.delete(key);
    };
  }

  /** Calls every handler of `target`; false when there is none. */
  dispatch(target: string, args: readonly unknown[]): boolean {
    const list = this.#handlers.get(target.toLowerCase());
    if (list === undefined) {
      this.unhandled++;
      const key = target.toLowerCase();
      if (!this.#logged.has(key) && this.#logged.size < maxLoggedTargets) {
        this.#logged.add(key);
        this.#logger.log('warn', 'hub: no handler for server invocation', { target });
      }
      return false;
    }
    for (const handler of [...list]) {
      try {
        const result = handler(args);
        if (result instanceof Promise) result.catch((e: unknown) => this.#failed(target, e));
      } catch (e) {
        this.#failed(target, e);
      }
    }
    return true;
  }

  #failed(target: string, e: unknown): void {
    this.#logger.log('error', 'hub: handler failed', { target, error: e instanceof Error ? e.message : String(e) });
  }
}
