import type { CartExtension, CartState, PricedLine } from 'cart-drawer-service/drawer'

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
