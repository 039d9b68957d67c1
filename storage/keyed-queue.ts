/**
 * Runs tasks that share a key one after another, in arrival order; tasks of different keys run side by side.
 * A task runs whether the one before it succeeded or failed.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<void>>()

  run<T> (key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key)
    const result = previous === undefined ? task() : previous.then(task)
    const tail = result.then(() => {}, () => {})
    this.#tails.set(key, tail)
    tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
    })
    return result
  }

  /** Keys with a task running or waiting. */
  get size (): number {
    return this.#tails.size
  }
}
