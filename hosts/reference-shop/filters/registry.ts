/**
 * Named server-side filters, as WordPress's `apply_filters`: callbacks run in priority order (lower first, then in
 * the order they were added), each receiving the previous callback's value. Callbacks may be sync or async. A
 * callback that throws is contained: the error is reported and the value from before it carries on.
 *
 * The known filters and their value and argument types are declared in `FilterHooks`; a plugin that adds a filter of
 * its own extends that interface by declaration merging.
 */

export interface FilterHooks {}

export type FilterName = keyof FilterHooks & string
type HookOf<N extends FilterName> = FilterHooks[N] extends { value: infer V, args: infer A extends unknown[] } ? { value: V, args: A } : never
export type FilterValue<N extends FilterName> = HookOf<N>['value']
export type FilterArgs<N extends FilterName> = HookOf<N>['args']
export type FilterCallback<N extends FilterName> = (value: FilterValue<N>, ...args: FilterArgs<N>) => FilterValue<N> | Promise<FilterValue<N>>

export const DEFAULT_PRIORITY = 10

/** A filter given as an option: one member per known filter name, so each callback gets its own types. */
export type FilterRegistration = { [N in FilterName]: { name: N, callback: FilterCallback<N>, priority?: number } }[FilterName]

interface Entry {
  callback: (value: unknown, ...args: unknown[]) => unknown
  priority: number
  order: number
}

export type FilterErrorReporter = (name: string, error: unknown) => void

export class FilterRegistry {
  readonly #entries = new Map<string, Entry[]>()
  #order = 0
  #report: FilterErrorReporter

  constructor (report: FilterErrorReporter = () => {}) {
    this.#report = report
  }

  /** Where contained errors go (the shop plugin points it at Fastify's logger). */
  setErrorReporter (report: FilterErrorReporter): void {
    this.#report = report
  }

  /** Adds a callback; returns a function that removes it again. */
  add<N extends FilterName> (name: N, callback: FilterCallback<N>, priority = DEFAULT_PRIORITY): () => void {
    if (!Number.isFinite(priority)) throw new TypeError(`Filter "${name}": priority must be a finite number`)
    const entry: Entry = { callback: callback as Entry['callback'], priority, order: this.#order++ }
    const list = [...(this.#entries.get(name) ?? []), entry]
    list.sort((a, b) => a.priority - b.priority || a.order - b.order)
    this.#entries.set(name, list)
    return () => {
      const remaining = (this.#entries.get(name) ?? []).filter((candidate) => candidate !== entry)
      if (remaining.length === 0) this.#entries.delete(name)
      else this.#entries.set(name, remaining)
    }
  }

  has (name: FilterName): boolean {
    return this.#entries.has(name)
  }

  /** Runs every callback of `name` over `value`; with none, `value` comes back as it is. */
  async apply<N extends FilterName> (name: N, value: FilterValue<N>, ...args: FilterArgs<N>): Promise<FilterValue<N>> {
    const entries = this.#entries.get(name)
    if (entries === undefined) return value
    let current: unknown = value
    // A snapshot: a callback that adds or removes filters affects the next run, not this one.
    for (const entry of [...entries]) {
      try {
        current = await entry.callback(current, ...args)
      } catch (error) {
        this.#report(name, error)
      }
    }
    return current as FilterValue<N>
  }
}
