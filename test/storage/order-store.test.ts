/** The `OrderStore` contract: an order and its effects (stock, coupon usage) land together or not at all. */
import type { NewOrder, OrderLine } from '../../kernel/domain/types.ts'
import { OrderConflictError } from '../../storage/index.ts'
import { cartKey, contract, coupon, line, product } from './fixtures/contract.ts'

function newOrder (overrides: Partial<NewOrder> = {}): NewOrder {
  const address = { firstName: 'Ada', lastName: 'Lovelace', company: '', address1: '1 Main St', address2: '', city: 'London', state: '', postcode: 'N1', country: 'GB', phone: '' }
  return {
    key: `wc_order_${Math.random().toString(36).slice(2, 15)}`,
    status: 'processing',
    customerId: null,
    billing: { ...address, email: 'ada@example.com' },
    shipping: address,
    customerNote: '',
    paymentMethod: 'cod',
    paymentMethodTitle: 'Cash on delivery',
    lines: [{ key: 'a'.repeat(32), productId: 1, variationId: 0, name: 'Product 1', sku: 'SKU-1', variation: {}, quantity: 2, unitPrice: 1001, subtotal: 2002, subtotalTax: 0, total: 2002, totalTax: 0 }],
    coupons: [],
    fees: [],
    shippingLines: [],
    totals: { totalItems: 2002, totalItemsTax: 0, totalFees: 0, totalFeesTax: 0, totalDiscount: 0, totalDiscountTax: 0, totalShipping: 0, totalShippingTax: 0, totalPrice: 2002, totalTax: 0, taxLines: [] },
    currency: 'USD',
    createdAt: '2026-11-24T12:00:00.000Z',
    ...overrides
  }
}

contract('OrderStore', async (t, storage) => {
  await storage.upsertProducts([
    product(1, { manageStock: true, stockQuantity: 5, stockStatus: 'instock' }),
    product(2, { manageStock: true, stockQuantity: 1, stockStatus: 'instock' }),
    product(3, { manageStock: false, stockQuantity: null }),
    product(4, { manageStock: true, stockQuantity: 1, stockStatus: 'instock', backorders: 'notify' })
  ])
  await storage.upsertCoupons([coupon('once', { usageLimit: 1, usageCount: 0 }), coupon('open', { usageLimit: null, usageCount: 3 })])

  t.test('createOrder stores the order with a new id, takes the stock and counts the coupons', async (t) => {
    const versionBefore = (await storage.readCart(cartKey())).catalogVersion
    const order = await storage.createOrder(newOrder({ customerId: 7 }), { stock: [{ productId: 1, quantity: 2 }, { productId: 3, quantity: 4 }], coupons: ['OPEN'] })
    t.ok(Number.isInteger(order.id) && order.id > 0)
    t.equal(order.customerId, 7)
    t.strictSame(await storage.getOrder(order.id), order, 'reads back as stored')
    t.equal((await storage.getProduct(1))?.stockQuantity, 3)
    t.equal((await storage.getProduct(1))?.stockStatus, 'instock')
    t.equal((await storage.getProduct(3))?.stockQuantity, null, 'a product without managed stock is untouched')
    t.equal((await storage.getCoupon('open'))?.usageCount, 4)
    t.equal((await storage.readCart(cartKey())).catalogVersion, versionBefore + 1, 'the catalog version grows once')
    const second = await storage.createOrder(newOrder(), { stock: [], coupons: [] })
    t.ok(second.id > order.id, 'ids grow')
  })

  t.test('the last item sells out; backorders go below zero', async (t) => {
    await storage.createOrder(newOrder(), { stock: [{ productId: 2, quantity: 1 }], coupons: [] })
    const sold = await storage.getProduct(2)
    t.equal(sold?.stockQuantity, 0)
    t.equal(sold?.stockStatus, 'outofstock')
    await storage.createOrder(newOrder(), { stock: [{ productId: 4, quantity: 3 }], coupons: [] })
    const back = await storage.getProduct(4)
    t.equal(back?.stockQuantity, -2)
    t.equal(back?.stockStatus, 'onbackorder')
  })

  t.test('a refusal changes nothing: not the stock, not the coupons, no order', async (t) => {
    const before = await storage.listOrders({})
    const stockBefore = (await storage.getProduct(1))?.stockQuantity
    const error = await storage.createOrder(newOrder(), { stock: [{ productId: 1, quantity: 1 }, { productId: 2, quantity: 1 }], coupons: ['open'] })
      .then(() => null, (caught: unknown) => caught)
    t.ok(error instanceof OrderConflictError)
    t.equal((error as OrderConflictError).reason, 'out_of_stock')
    t.equal((error as OrderConflictError).subject, 2)
    t.equal((await storage.getProduct(1))?.stockQuantity, stockBefore, 'the first line\'s stock is back')
    t.equal((await storage.getCoupon('open'))?.usageCount, 4)
    t.equal((await storage.listOrders({})).total, before.total)

    await storage.createOrder(newOrder(), { stock: [], coupons: ['once'] })
    const limited = await storage.createOrder(newOrder(), { stock: [{ productId: 1, quantity: 1 }], coupons: ['once'] }).then(() => null, (caught: unknown) => caught)
    t.equal((limited as OrderConflictError).reason, 'coupon_usage_limit')
    t.equal((limited as OrderConflictError).subject, 'once')
    t.equal((await storage.getCoupon('once'))?.usageCount, 1)
    t.equal((await storage.getProduct(1))?.stockQuantity, stockBefore)
  })

  t.test('inside updateCart it commits and rolls back with the cart', async (t) => {
    const key = cartKey()
    await storage.updateCart(key, () => ({ data: { lines: [line(1, 1)], coupons: [] }, result: null }))
    const stock = (await storage.getProduct(1))?.stockQuantity ?? 0
    const total = (await storage.listOrders({})).total
    await t.rejects(storage.updateCart(key, async () => {
      await storage.createOrder(newOrder(), { stock: [{ productId: 1, quantity: 1 }], coupons: [] })
      throw new Error('payment failed')
    }), { message: 'payment failed' })
    t.equal((await storage.getProduct(1))?.stockQuantity, stock, 'the stock is back')
    t.equal((await storage.listOrders({})).total, total, 'no order')
    t.equal((await storage.getCart(key))?.data.lines.length, 1, 'the cart is unchanged')

    const placed = await storage.updateCart(key, async () => {
      const order = await storage.createOrder(newOrder(), { stock: [{ productId: 1, quantity: 1 }], coupons: [] })
      return { data: { lines: [], coupons: [] }, result: order }
    })
    t.equal((await storage.getOrder(placed.result.id))?.key, placed.result.key)
    t.equal((await storage.getProduct(1))?.stockQuantity, stock - 1)
    t.same((await storage.getCart(key))?.data.lines, [], 'the cart is emptied in the same transaction')
  })

  t.test('concurrent orders of the last item: exactly one succeeds', async (t) => {
    await storage.upsertProducts([product(9, { manageStock: true, stockQuantity: 1, stockStatus: 'instock' })])
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () =>
      storage.createOrder(newOrder(), { stock: [{ productId: 9, quantity: 1 }], coupons: [] })))
    t.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1)
    t.ok(outcomes.every((outcome) => outcome.status === 'fulfilled' || outcome.reason instanceof OrderConflictError))
    t.equal((await storage.getProduct(9))?.stockQuantity, 0)
  })

  t.test('listOrders: newest first, by customer, paged', async (t) => {
    const mine = [await storage.createOrder(newOrder({ customerId: 42 }), { stock: [], coupons: [] }),
      await storage.createOrder(newOrder({ customerId: 42 }), { stock: [], coupons: [] })]
    await storage.createOrder(newOrder({ customerId: 43 }), { stock: [], coupons: [] })
    const page = await storage.listOrders({ customerId: 42 })
    t.same(page.orders.map((order) => order.id), [mine[1]!.id, mine[0]!.id])
    t.equal(page.total, 2)
    const second = await storage.listOrders({ customerId: 42, page: 2, perPage: 1 })
    t.same(second.orders.map((order) => order.id), [mine[0]!.id])
    t.equal(second.total, 2)
    t.equal(await storage.getOrder(999_999), null)
  })

  t.test('purgeGuestCarts deletes old guest carts only; purgeExpiredSessions old sessions only', async (t) => {
    const guest = cartKey()
    const owned = cartKey()
    await storage.updateCart(guest, () => ({ data: { lines: [line(3)], coupons: [] }, result: null }))
    await storage.updateCart(owned, () => ({ data: { lines: [line(3)], coupons: [] }, result: null }))
    const user = await storage.ensureUser({ email: 'sweep@example.com', displayName: 'S', passwordHash: 'x', capabilities: [] })
    await storage.setCartUser(owned, user.id)
    t.equal(await storage.purgeGuestCarts('2000-01-01T00:00:00.000Z', 100), 0, 'nothing older than 2000')
    const future = new Date(Date.now() + 3_600_000).toISOString()
    t.ok(await storage.purgeGuestCarts(future, 1000) >= 1)
    t.equal(await storage.getCart(guest), null)
    t.not(await storage.getCart(owned), null, 'a user\'s cart stays')

    await storage.createSession({ idHash: 'old-session', userId: user.id, capabilities: [], createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-02T00:00:00.000Z' })
    await storage.createSession({ idHash: 'live-session', userId: user.id, capabilities: [], createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2099-01-02T00:00:00.000Z' })
    t.equal(await storage.purgeExpiredSessions('2026-06-01T00:00:00.000Z', 100), 1)
    t.equal(await storage.getSession('old-session'), null)
    t.not(await storage.getSession('live-session'), null)
  })
})

contract('OrderStore.bestSellers', async (t, storage) => {
  const orderLine = (productId: number, quantity: number, variationId = 0) => ({
    key: `${productId}-${variationId}`.padEnd(32, '0'), productId, variationId, name: `Product ${productId}`, sku: '', variation: {}, quantity, unitPrice: 100, subtotal: 100 * quantity, subtotalTax: 0, total: 100 * quantity, totalTax: 0
  })
  const place = (lines: Array<ReturnType<typeof orderLine>>, status: NewOrder['status'] = 'processing') =>
    storage.createOrder(newOrder({ lines, status }), { stock: [], coupons: [] })

  t.test('no orders: no best sellers', async (t) => {
    t.same(await storage.bestSellers(5), [])
  })

  t.test('units summed per product over processing, on-hold and completed orders; most first, ties by id', async (t) => {
    await place([orderLine(10, 1), orderLine(11, 2)])
    await place([orderLine(10, 3)], 'completed')
    await place([orderLine(12, 2)], 'on-hold')
    // A variation's units count for its parent.
    await place([orderLine(13, 1, 131), orderLine(13, 1, 132)])
    t.same(await storage.bestSellers(10), [
      { productId: 10, quantity: 4 },
      { productId: 11, quantity: 2 },
      { productId: 12, quantity: 2 },
      { productId: 13, quantity: 2 }
    ])
  })

  t.test('cancelled, refunded, failed and pending orders do not count', async (t) => {
    for (const status of ['cancelled', 'refunded', 'failed', 'pending'] as const) await place([orderLine(20, 50)], status)
    t.notOk((await storage.bestSellers(100)).some((seller) => seller.productId === 20))
  })

  t.test('the limit caps the answer and is brought within 1–100', async (t) => {
    t.same((await storage.bestSellers(2)).map((seller) => seller.productId), [10, 11])
    t.equal((await storage.bestSellers(0)).length, 1, 'below 1: one')
    t.equal((await storage.bestSellers(2.7)).length, 2, 'a fraction is floored')
    t.equal((await storage.bestSellers(Number.NaN)).length, 4, 'not a number: the default (10)')
  })
})

contract('OrderStore.orderAttribution', async (t, storage) => {
  const orderLine = (productId: number, quantity: number, total: number, origin?: OrderLine['origin'], extra: Partial<OrderLine> = {}): OrderLine => ({
    key: `${productId}-${extra.variationId ?? 0}`.padEnd(32, '0'),
    productId,
    variationId: 0,
    name: `Product ${productId}`,
    sku: '',
    variation: {},
    quantity,
    unitPrice: Math.round(total / quantity),
    subtotal: total,
    subtotalTax: 0,
    total,
    totalTax: Math.round(total / 10),
    ...(origin === undefined ? {} : { origin }),
    ...extra
  })
  const place = (createdAt: string, lines: OrderLine[], status: NewOrder['status'] = 'processing') =>
    storage.createOrder(newOrder({ createdAt, lines, status }), { stock: [], coupons: [] })

  t.test('no orders: nothing', async (t) => {
    t.strictSame(await storage.orderAttribution('2026-03-01', '2026-03-31', 10), { days: [], origins: [], products: [] })
  })

  t.test('per day, per origin and per product, over the counted orders of the range', async (t) => {
    await place('2026-03-01T10:00:00.000Z', [orderLine(10, 2, 2000, 'recommendation', { name: 'Product 10 (old name)' }), orderLine(11, 1, 500)])
    await place('2026-03-01T23:59:59.999Z', [orderLine(12, 1, 1000)], 'on-hold')
    await place('2026-03-02T00:00:00.000Z', [
      orderLine(13, 1, 700, 'bundle', { variationId: 131, name: 'Hoodie - Blue' }),
      orderLine(13, 1, 800, 'bundle', { variationId: 132, name: 'Hoodie - Red' }),
      orderLine(10, 1, 1000, 'spotlight')
    ], 'completed')
    await place('2026-03-02T12:00:00.000Z', [orderLine(15, 3, 1500, 'addon'), orderLine(14, 3, 1500, 'addon')])
    // Not counted: other statuses, and the instants just outside the range.
    for (const status of ['cancelled', 'refunded', 'failed', 'pending'] as const) {
      await place('2026-03-02T13:00:00.000Z', [orderLine(10, 50, 99_999, 'recommendation')], status)
    }
    await place('2026-02-28T23:59:59.999Z', [orderLine(10, 50, 99_999, 'recommendation')])
    await place('2026-03-03T00:00:00.000Z', [orderLine(10, 50, 99_999, 'recommendation')])

    t.strictSame(await storage.orderAttribution('2026-03-01', '2026-03-02', 10), {
      days: [
        { day: '2026-03-01', orders: 2, drawerOrders: 1, sales: '3500', drawerOrderSales: '2500', attributed: '2000' },
        { day: '2026-03-02', orders: 2, drawerOrders: 2, sales: '5500', drawerOrderSales: '5500', attributed: '5500' }
      ],
      origins: [
        { origin: 'addon', units: 6, orders: 1, revenue: '3000' },
        { origin: 'bundle', units: 2, orders: 1, revenue: '1500' },
        { origin: 'recommendation', units: 2, orders: 1, revenue: '2000' },
        { origin: 'spotlight', units: 1, orders: 1, revenue: '1000' }
      ],
      products: [
        { productId: 10, name: 'Product 10', units: 3, orders: 2, revenue: '3000' },
        { productId: 14, name: 'Product 14', units: 3, orders: 1, revenue: '1500' },
        { productId: 15, name: 'Product 15', units: 3, orders: 1, revenue: '1500' },
        { productId: 13, name: 'Hoodie - Blue', units: 2, orders: 1, revenue: '1500' }
      ]
    }, 'line totals before tax; a variation counts for its product, named by the first line of its newest order; ties: more units, then the lower id')
    t.same((await storage.orderAttribution('2026-03-02', '2026-03-02', 10)).days.map((day) => day.day), ['2026-03-02'], 'a one-day range')
  })

  t.test('the product limit is brought within 1–100', async (t) => {
    t.same((await storage.orderAttribution('2026-03-01', '2026-03-02', 2)).products.map((row) => row.productId), [10, 14])
    t.equal((await storage.orderAttribution('2026-03-01', '2026-03-02', 0)).products.length, 1, 'below 1: one')
    t.equal((await storage.orderAttribution('2026-03-01', '2026-03-02', Number.NaN)).products.length, 4, 'not a number: the default (10)')
  })

  t.test('sums are exact beyond 2^53', async (t) => {
    const big = 4_503_599_627_370_497 // 2^52 + 1
    await place('2026-04-01T10:00:00.000Z', [orderLine(20, 1, big, 'addon')])
    await place('2026-04-01T11:00:00.000Z', [orderLine(20, 1, big, 'addon'), orderLine(21, 1, 1)])
    const result = await storage.orderAttribution('2026-04-01', '2026-04-01', 10)
    t.strictSame(result.days, [{ day: '2026-04-01', orders: 2, drawerOrders: 2, sales: '9007199254740995', drawerOrderSales: '9007199254740995', attributed: '9007199254740994' }])
    t.strictSame(result.products, [{ productId: 20, name: 'Product 20', units: 2, orders: 2, revenue: '9007199254740994' }])
  })

  t.test('an order placed while the figures are read is counted whole or not at all', async (t) => {
    const lines = [orderLine(30, 1, 100, 'recommendation'), orderLine(31, 1, 50)]
    const reads = await Promise.all(Array.from({ length: 10 }, async (_, index) => {
      if (index % 2 === 0) await place('2026-05-01T10:00:00.000Z', lines)
      return storage.orderAttribution('2026-05-01', '2026-05-01', 10)
    }))
    for (const read of reads) {
      const day = read.days[0]
      if (day === undefined) continue
      t.equal(BigInt(day.sales), BigInt(day.orders) * 150n, 'sales of whole orders')
      t.equal(BigInt(day.attributed), BigInt(day.drawerOrders) * 100n, 'attributed of whole orders')
    }
    t.strictSame((await storage.orderAttribution('2026-05-01', '2026-05-01', 10)).days,
      [{ day: '2026-05-01', orders: 5, drawerOrders: 5, sales: '750', drawerOrderSales: '750', attributed: '500' }])
  })
})
