import type { Coupon, NewOrder, Order, Product } from '../../kernel/domain/types.ts'
import { stockByProduct, takeStock } from '../../kernel/domain/stock.ts'
import { OrderConflictError } from '../contract/index.ts'
import type {
  BestSeller, OrderAttribution, OrderAttributionDay, OrderAttributionShare, OrderEffects, OrderQuery, OrderStore
} from '../contract/index.ts'
import { BEST_SELLER_STATUSES, bestSellerLimit, normaliseKey, orderPaging } from '../rules.ts'
import { copy, DAY_MS, dayStart, type MemoryState } from './state.ts'

/** Counts one drawer line into a share (`orderAttribution`). */
function addShare<S extends { units: number, orders: Set<number>, revenue: bigint }> (sums: S, orderId: number, units: number, total: number): S {
  sums.units += units
  sums.orders.add(orderId)
  sums.revenue += BigInt(total)
  return sums
}

/**
 * `OrderStore` in memory. `createOrder` takes the catalog's stock and counts its coupons in the same step as it stores
 * the order; inside an `updateCart` callback all of it rolls back with the cart.
 */
export class MemoryOrderStore implements OrderStore {
  readonly #state: MemoryState

  constructor (state: MemoryState) {
    this.#state = state
  }

  async createOrder (order: NewOrder, effects: OrderEffects): Promise<Order> {
    this.#state.assertOpen()
    // Every check runs before any write, with no await between them: the order and its effects land together.
    const products = new Map<number, Product>()
    for (const [id, quantity] of stockByProduct(effects.stock)) {
      const product = this.#state.products.get(id)
      if (product === undefined) continue
      const after = takeStock(product, quantity)
      if (after === null) throw new OrderConflictError('out_of_stock', id)
      if (after !== product) products.set(id, after)
    }
    const coupons = new Map<string, Coupon>()
    for (const code of new Set(effects.coupons.map(normaliseKey))) {
      const coupon = this.#state.coupons.get(code)
      if (coupon === undefined) continue
      if (coupon.usageLimit !== null && coupon.usageCount >= coupon.usageLimit) throw new OrderConflictError('coupon_usage_limit', code)
      coupons.set(code, { ...coupon, usageCount: coupon.usageCount + 1 })
    }
    for (const [id, product] of products) this.#state.assign(this.#state.products, id, product)
    for (const [code, coupon] of coupons) this.#state.assign(this.#state.coupons, code, coupon)
    if (products.size > 0 || coupons.size > 0) this.#state.bumpCatalog()
    const id = this.#state.nextOrderId++
    const stored: Order = { ...copy(order), id }
    this.#state.assign(this.#state.orders, id, stored)
    return copy(stored)
  }

  async getOrder (id: number): Promise<Order | null> {
    this.#state.assertOpen()
    const order = this.#state.orders.get(id)
    return order === undefined ? null : copy(order)
  }

  async listOrders (query: OrderQuery): Promise<{ orders: Order[], total: number }> {
    this.#state.assertOpen()
    const matches = [...this.#state.orders.values()]
      .filter((order) => query.customerId === undefined || order.customerId === query.customerId)
      .sort((a, b) => b.id - a.id)
    const { offset, limit } = orderPaging(query)
    return { orders: matches.slice(offset, offset + limit).map(copy), total: matches.length }
  }

  async bestSellers (limit: number): Promise<BestSeller[]> {
    this.#state.assertOpen()
    const units = new Map<number, number>()
    for (const order of this.#state.orders.values()) {
      if (!BEST_SELLER_STATUSES.includes(order.status)) continue
      for (const line of order.lines) units.set(line.productId, (units.get(line.productId) ?? 0) + line.quantity)
    }
    return [...units].map(([productId, quantity]) => ({ productId, quantity }))
      .filter((seller) => seller.quantity > 0)
      .sort((a, b) => b.quantity - a.quantity || a.productId - b.productId)
      .slice(0, bestSellerLimit(limit))
  }

  async orderAttribution (from: string, to: string, topProducts: number): Promise<OrderAttribution> {
    this.#state.assertOpen()
    const start = dayStart(from, 'from')
    const end = dayStart(to, 'to') + DAY_MS
    interface Sums { units: number, orders: Set<number>, revenue: bigint }
    const days = new Map<string, { orders: number, drawerOrders: number, sales: bigint, drawerOrderSales: bigint, attributed: bigint }>()
    const origins = new Map<string, Sums>()
    const products = new Map<number, Sums & { name: string, newest: number }>()
    const orders = [...this.#state.orders.values()].filter((order) => {
      const at = Date.parse(order.createdAt)
      return BEST_SELLER_STATUSES.includes(order.status) && at >= start && at < end
    })
    for (const order of orders) {
      const day = new Date(order.createdAt).toISOString().slice(0, 10)
      const sums = days.get(day) ?? { orders: 0, drawerOrders: 0, sales: 0n, drawerOrderSales: 0n, attributed: 0n }
      days.set(day, sums)
      let sales = 0n
      let attributed = 0n
      let drawer = false
      for (const line of order.lines) {
        sales += BigInt(line.total)
        if (line.origin === undefined) continue
        drawer = true
        attributed += BigInt(line.total)
        const byOrigin = origins.get(line.origin) ?? { units: 0, orders: new Set(), revenue: 0n }
        origins.set(line.origin, addShare(byOrigin, order.id, line.quantity, line.total))
        const byProduct = products.get(line.productId) ?? { units: 0, orders: new Set(), revenue: 0n, name: line.name, newest: order.id }
        if (order.id > byProduct.newest) Object.assign(byProduct, { name: line.name, newest: order.id })
        products.set(line.productId, addShare(byProduct, order.id, line.quantity, line.total))
      }
      sums.orders++
      sums.sales += sales
      sums.attributed += attributed
      if (drawer) {
        sums.drawerOrders++
        sums.drawerOrderSales += sales
      }
    }
    const share = ({ units, orders: holding, revenue }: Sums): OrderAttributionShare => ({ units, orders: holding.size, revenue: revenue.toString() })
    return {
      days: [...days].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([day, sums]): OrderAttributionDay => ({
        day,
        orders: sums.orders,
        drawerOrders: sums.drawerOrders,
        sales: sums.sales.toString(),
        drawerOrderSales: sums.drawerOrderSales.toString(),
        attributed: sums.attributed.toString()
      })),
      origins: [...origins].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([origin, sums]) => ({ origin, ...share(sums) })),
      products: [...products]
        .sort(([idA, a], [idB, b]) => (a.revenue === b.revenue ? 0 : a.revenue > b.revenue ? -1 : 1) || b.units - a.units || idA - idB)
        .slice(0, bestSellerLimit(topProducts))
        .map(([productId, sums]) => ({ productId, name: sums.name, ...share(sums) }))
    }
  }
}
