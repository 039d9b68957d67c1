import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * A value seen by everything a scope runs, across its awaits (an `AsyncLocalStorage`), that costs nothing while no
 * scope is open.
 *
 * On Node 20 the first `AsyncLocalStorage.run` turns on a promise hook for the rest of the process: from then on
 * every promise any request makes pays for carrying the store, whether or not a scope is open, and V8's fast paths
 * for `await` are off (measured in docs/decisions/scoped-async-context.md). So the storage
 * is disabled again when its last open scope ends. Node turns the hook off once no storage is enabled.
 *
 * After the last scope ends, `get` answers undefined everywhere, including in a callback that a scope started and
 * that runs later. Here that is what a scope means: its transaction or its response is over.
 */
export class ScopedContext<T> {
  readonly #storage = new AsyncLocalStorage<T>()
  #open = 0

  /** The value of the innermost open scope this code runs in, or undefined. */
  get (): T | undefined {
    return this.#open === 0 ? undefined : this.#storage.getStore()
  }

  /** Runs `work` with `value` as the scope's value; the scope stays open until the promise settles. */
  async run<R> (value: T, work: () => Promise<R>): Promise<R> {
    this.#open++
    try {
      return await this.#storage.run(value, work)
    } finally {
      if (--this.#open === 0) this.#storage.disable()
    }
  }

  /** How many scopes are open (for tests and diagnostics). */
  get open (): number {
    return this.#open
  }
}
