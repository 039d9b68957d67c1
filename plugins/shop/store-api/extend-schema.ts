import type { PricedLine } from '../../../domain/types.ts'
import type { CartState } from '../cart/cart-service.ts'

/**
 * Store API extension data, as WooCommerce's ExtendSchema: a namespace registers a callback for the cart and one
 * for each cart item, and their results appear under `extensions[namespace]` of every cart response.
 */
export interface CartExtension {
  namespace: string
  cart?: (state: CartState) => unknown | Promise<unknown>
  item?: (line: PricedLine, state: CartState) => unknown | Promise<unknown>
}

export class ExtendSchema {
  readonly #extensions = new Map<string, CartExtension>()

  register (extension: CartExtension): void {
    if (this.#extensions.has(extension.namespace)) {
      throw new Error(`Store API extension namespace "${extension.namespace}" is already registered`)
    }
    this.#extensions.set(extension.namespace, extension)
  }

  get size (): number {
    return this.#extensions.size
  }

  async cartData (state: CartState): Promise<Record<string, unknown>> {
    const data: Record<string, unknown> = {}
    for (const extension of this.#extensions.values()) {
      if (extension.cart) data[extension.namespace] = await extension.cart(state)
    }
    return data
  }

  async itemData (line: PricedLine, state: CartState): Promise<Record<string, unknown>> {
    const data: Record<string, unknown> = {}
    for (const extension of this.#extensions.values()) {
      if (extension.item) data[extension.namespace] = await extension.item(line, state)
    }
    return data
  }
}
