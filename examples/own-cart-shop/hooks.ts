import type { CartExtension, CartState, DrawerFilterHooks, DrawerFilterName, FilterPort, PricedLine } from 'cart-drawer-service'

type Callback = (value: unknown, ...args: unknown[]) => unknown
interface Entry { callback: Callback, priority: number, order: number }

/** Named filters: callbacks by priority (lower first, then in the order added); one that throws is reported and skipped. */
export class Filters implements FilterPort {
  readonly #entries = new Map<string, Entry[]>()
  #order = 0
  #report: (name: string, error: unknown) => void = () => {}

  add<N extends DrawerFilterName> (name: N, callback: (value: DrawerFilterHooks[N]['value'], ...args: DrawerFilterHooks[N]['args']) => unknown, priority = 10): () => void {
    const entry: Entry = { callback: callback as Callback, priority, order: this.#order++ }
    this.#entries.set(name, [...(this.#entries.get(name) ?? []), entry].sort((a, b) => a.priority - b.priority || a.order - b.order))
    return () => { this.#entries.set(name, (this.#entries.get(name) ?? []).filter((candidate) => candidate !== entry)) }
  }

  async apply<N extends DrawerFilterName> (name: N, value: DrawerFilterHooks[N]['value'], ...args: DrawerFilterHooks[N]['args']): Promise<DrawerFilterHooks[N]['value']> {
    let current: unknown = value
    for (const { callback } of this.#entries.get(name) ?? []) {
      try {
        current = await callback(current, ...args)
      } catch (error) {
        this.#report(name, error)
      }
    }
    return current as DrawerFilterHooks[N]['value']
  }

  has (name: DrawerFilterName): boolean {
    return (this.#entries.get(name)?.length ?? 0) > 0
  }

  setErrorReporter (report: (name: string, error: unknown) => void): void {
    this.#report = report
  }
}

/** The `extensions` of the shop's own cart answers, by namespace. */
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
