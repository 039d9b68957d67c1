import type { Product } from '../../kernel/domain/types.ts'

/** What a cart read tells the database it already holds, and those products, held for the read's duration. */
export interface ProductHint {
  /** The catalog version the products were read at; -1: none. */
  version: number
  ids: number[]
  held: ReadonlyMap<number, Product>
}

/** Nothing held: the database sends every product. */
export const NO_PRODUCT_HINT: ProductHint = { version: -1, ids: [], held: new Map() }

function deepFreeze<T> (value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

/**
 * Products as read at one catalog version, per instance, so a cart read need not fetch and parse again the products
 * it read last time. Every product or coupon write moves the catalog version in the same statement or transaction,
 * so a product read at version V is the product at V: the read passes the version its products were read at and
 * their ids, and the database sends only the cart's other products, or all of them when the version it sees is
 * another. The cache follows the newest version it is told of and forgets the rest; what a cart read last needed
 * is remembered per cart key (the ids to offer on its next read). Both are bounded, oldest out. Products are frozen:
 * one object serves many requests.
 */
export class ProductCache {
  readonly #maxProducts: number
  readonly #maxCarts: number
  readonly #maxRecent: number
  #version = -1
  readonly #products = new Map<number, Product>()
  readonly #carts = new Map<string, number[]>()
  /** The products cart reads needed most recently (oldest first), offered for a cart this instance has not read. */
  readonly #recent = new Set<number>()

  constructor ({ maxProducts = 5000, maxCarts = 10_000, maxRecent = 64 }: { maxProducts?: number, maxCarts?: number, maxRecent?: number } = {}) {
    this.#maxProducts = maxProducts
    this.#maxCarts = maxCarts
    this.#maxRecent = maxRecent
  }

  /**
   * The products the cart's last read needed that the cache still holds at its version; for a cart this instance has
   * not read (a shopper's first request here), the products other carts needed last: a shop's carts share their
   * best sellers, so the database seldom has to send them again.
   */
  hint (key: string): ProductHint {
    if (this.#version < 0) return NO_PRODUCT_HINT
    const last = this.#carts.get(key) ?? this.#recent
    const held = new Map<number, Product>()
    for (const id of last) {
      const product = this.#products.get(id)
      if (product !== undefined) held.set(id, product)
    }
    return held.size === 0 ? NO_PRODUCT_HINT : { version: this.#version, ids: [...held.keys()], held }
  }

  /** The products of `ids` at the cache's version, with it, when the cache holds every one; else null. */
  known (ids: readonly number[]): { products: Map<number, Product>, catalogVersion: number } | null {
    if (this.#version < 0) return null
    const products = new Map<number, Product>()
    for (const id of ids) {
      const product = this.#products.get(id)
      if (product === undefined) return null
      products.set(id, product)
    }
    return { products, catalogVersion: this.#version }
  }

  /** Keeps products read at `version` outside a cart read (an add's product). */
  remember (version: number, products: readonly Product[]): void {
    if (!this.#take(version, products)) return
    this.#trim()
  }

  /**
   * The cart's products from what the database sent (`sent`, read at `version`) and what the hint held (used only
   * when the database saw the hint's version); keeps what was sent, and the cart's ids for its next read.
   */
  complete (key: string, hint: ProductHint, version: number, sent: readonly Product[], needed: ReadonlySet<number>): Map<number, Product> {
    const products = new Map<number, Product>()
    for (const product of sent) products.set(product.id, product)
    if (version === hint.version) {
      for (const id of needed) {
        const held = hint.held.get(id)
        if (held !== undefined && !products.has(id)) products.set(id, held)
      }
    }
    this.#learn(key, version, sent, needed)
    return products
  }

  /** Takes products read at `version` (false: an older version than the cache's, nothing taken). */
  #take (version: number, sent: readonly Product[]): boolean {
    if (version < this.#version) return false
    if (version > this.#version) {
      this.#version = version
      this.#products.clear()
    }
    for (const product of sent) {
      this.#products.delete(product.id)
      this.#products.set(product.id, deepFreeze(product))
    }
    return true
  }

  #trim (): void {
    while (this.#products.size > this.#maxProducts) this.#products.delete(this.#products.keys().next().value!)
  }

  #learn (key: string, version: number, sent: readonly Product[], needed: ReadonlySet<number>): void {
    if (!this.#take(version, sent)) return
    // The products this read used from the cache move to the young end: a busy cart's products stay.
    for (const id of needed) {
      const kept = this.#products.get(id)
      if (kept === undefined) continue
      this.#products.delete(id)
      this.#products.set(id, kept)
    }
    this.#trim()
    for (const id of needed) {
      this.#recent.delete(id)
      this.#recent.add(id)
    }
    while (this.#recent.size > this.#maxRecent) this.#recent.delete(this.#recent.keys().next().value!)
    this.#carts.delete(key)
    if (needed.size > 0) this.#carts.set(key, [...needed])
    while (this.#carts.size > this.#maxCarts) this.#carts.delete(this.#carts.keys().next().value!)
  }
}
