import type { CartExtension, CartState, DrawerFilterHooks, DrawerFilterName, FilterPort, PricedLine } from 'cart-drawer-service'

type Value<N extends DrawerFilterName> = DrawerFilterHooks[N]['value']
type Args<N extends DrawerFilterName> = DrawerFilterHooks[N]['args']
type Callback = (value: unknown, ...args: unknown[]) => unknown

interface Entry {
  callback: Callback
  priority: number
  order: number
}

/**
 * Named filters, as WordPress's `apply_filters`: callbacks by priority (lower first, then in the order added), each
 * given the previous one's value. A callback that throws is reported and its input value kept.
 */
export class Filters implements FilterPort {
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

/** Store API extension data: each namespace's callbacks, run for every cart response of the shop. */
export class CartExtensions {
  readonly #extensions = new Map<string, CartExtension>()

  register (extension: CartExtension): void {
    if (this.#extensions.has(extension.namespace)) throw new Error(`extension namespace "${extension.namespace}" is already registered`)
    this.#extensions.set(extension.namespace, extension)
  }

  async cartData (state: CartState): Promise<Record<string, unknown>> {
    const data: Record<string, unknown> = {}
    for (const { namespace, cart } of this.#extensions.values()) if (cart) data[namespace] = await cart(state)
    return data
  }

  async itemData (line: PricedLine, state: CartState): Promise<Record<string, unknown>> {
    const data: Record<string, unknown> = {}
    for (const { namespace, item } of this.#extensions.values()) if (item) data[namespace] = await item(line, state)
    return data
  }
}
