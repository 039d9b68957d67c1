/**
 * A lock per cart key, as a promise chain: `run` waits until the key's earlier holders have finished, then runs
 * `task` alone for that key. Not re-entrant: a task that waited on its own key would wait forever, which is why
 * the drawer's hooks never call back into a cart operation.
 */
export class CartLock {
  readonly #tails = new Map<string, Promise<void>>()

  async run<T> (key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve()
    let release!: () => void
    const tail = new Promise<void>((resolve) => { release = resolve })
    this.#tails.set(key, tail)
    await before
    try {
      return await task()
    } finally {
      release()
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
    }
  }
}
