import type { PricedLine } from '../../../kernel/domain/types.ts'
import type { CartState, Viewer } from '../cart/cart-service.ts'

/**
 * Store API extension data, as WooCommerce's ExtendSchema: a namespace registers a callback for the cart and one
 * for each cart item, and their results appear under `extensions[namespace]` of every cart response.
 */
export interface CartExtension {
  namespace: string
  cart?: (state: CartState) => unknown | Promise<unknown>
  item?: (line: PricedLine, state: CartState) => unknown | Promise<unknown>
}

/**
 * What `cart/extensions` runs for a namespace (WooCommerce's `woocommerce_store_api_register_update_callback`): it may
 * change the cart through the platform; the route then answers the cart.
 */
export interface CartUpdateCallback {
  namespace: string
  callback: (input: { cartKey: string, viewer: Viewer, data: Record<string, unknown> }) => void | Promise<void>
}

function isThenable (value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function'
}

export class ExtendSchema {
  readonly #extensions = new Map<string, CartExtension>()
  readonly #updateCallbacks = new Map<string, CartUpdateCallback>()

  /** Registers the `cart/extensions` callback of a namespace (one per namespace). */
  registerUpdateCallback (update: CartUpdateCallback): void {
    if (this.#updateCallbacks.has(update.namespace)) {
      throw new Error(`Store API update callback namespace "${update.namespace}" is already registered`)
    }
    this.#updateCallbacks.set(update.namespace, update)
  }

  /** The `cart/extensions` callback of a namespace, if one is registered. */
  updateCallback (namespace: string): CartUpdateCallback['callback'] | undefined {
    return this.#updateCallbacks.get(namespace)?.callback
  }

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

  /**
   * Each namespace's data for one cart item, in registration order. A promise only once a callback answered one: most
   * answer at once, and a cart of 100 lines asks 100 times (each promise costs its allocation and the async hooks).
   */
  itemData (line: PricedLine, state: CartState): Record<string, unknown> | Promise<Record<string, unknown>> {
    const data: Record<string, unknown> = {}
    const extensions = [...this.#extensions.values()]
    for (let index = 0; index < extensions.length; index++) {
      const { namespace, item } = extensions[index]!
      if (item === undefined) continue
      const value = item(line, state)
      if (isThenable(value)) return this.#itemDataAsync(extensions.slice(index), value, data, line, state)
      data[namespace] = value
    }
    return data
  }

  async #itemDataAsync (
    extensions: readonly CartExtension[], first: PromiseLike<unknown>, data: Record<string, unknown>, line: PricedLine, state: CartState
  ): Promise<Record<string, unknown>> {
    data[extensions[0]!.namespace] = await first
    for (const { namespace, item } of extensions.slice(1)) {
      if (item) data[namespace] = await item(line, state)
    }
    return data
  }
}
