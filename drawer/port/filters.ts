import type { DrawerFilterHooks, DrawerFilterName, FilterPort } from './port.ts'

type Value<N extends DrawerFilterName> = DrawerFilterHooks[N]['value']
type Args<N extends DrawerFilterName> = DrawerFilterHooks[N]['args']
type Callback = (value: unknown, ...args: unknown[]) => unknown

interface Entry {
  callback: Callback
  priority: number
  order: number
}

/**
 * The drawer's own named filters, for a host that has none (`CommercePort.filters` left out), as WordPress's
 * `apply_filters`: callbacks by priority (lower first, then in the order added), each given the previous one's value. A
 * callback that throws is reported and its input value kept. The host applies the ones that concern its pages through
 * `fastify.commerce.filters` (the storefront scripts, the add-to-cart fragments, the checkout's order action).
 */
export class DrawerFilters implements Required<FilterPort> {
  readonly #entries = new Map<string, Entry[]>()
  #order = 0
  #report: (name: string, error: unknown) => void = () => {}

  add<N extends DrawerFilterName> (name: N, callback: (value: Value<N>, ...args: Args<N>) => Value<N> | Promise<Value<N>>, priority = 10): () => void {
    const entry: Entry = { callback: callback as Callback, priority, order: this.#order++ }
    const entries = [...(this.#entries.get(name) ?? []), entry].sort((a, b) => a.priority - b.priority || a.order - b.order)
    this.#entries.set(name, entries)
    return () => {
      const remaining = (this.#entries.get(name) ?? []).filter((candidate) => candidate !== entry)
      if (remaining.length === 0) this.#entries.delete(name)
      else this.#entries.set(name, remaining)
    }
  }

  async apply<N extends DrawerFilterName> (name: N, value: Value<N>, ...args: Args<N>): Promise<Value<N>> {
    let current: unknown = value
    for (const { callback } of this.#entries.get(name) ?? []) {
      try {
        current = await callback(current, ...args)
      } catch (error) {
        this.#report(name, error)
      }
    }
    return current as Value<N>
  }

  has (name: DrawerFilterName): boolean {
    return (this.#entries.get(name)?.length ?? 0) > 0
  }

  setErrorReporter (report: (name: string, error: unknown) => void): void {
    this.#report = report
  }
}
