import { randomUUID } from 'node:crypto'
import { test } from 'tap'
import type { CartData, CartLine, Coupon, Product } from '../../domain/types.ts'
import { migrate, migrations } from '../../storage/sql/migrations.ts'
import type { AnalyticsEvent } from '../../storage/types.ts'
import { makeCoupon, makeProduct } from '../domain/fixtures.ts'
import { storageBackends } from '../helpers/storage-backends.ts'

/** A product whose fields all derive from its id, so that stored and read values can be told apart. */
function product (id: number, overrides: Partial<Product> = {}): Product {
  return makeProduct({
    id,
    name: `Product ${id}`,
    slug: `product-${id}`,
    sku: `SKU-${id}`,
    shortDescription: `Short ${id}`,
    description: `Description of product ${id}`,
    regularPrice: 1000 + id,
    images: [{ id: id * 10, src: `https://shop.test/${id}.jpg`, thumbnail: `https://shop.test/${id}-thumb.jpg`, alt: '', name: `${id}.jpg` }],
    ...overrides
  })
}

function line (productId: number, quantity = 1): CartLine {
  return { key: productId.toString(16).padStart(32, '0'), productId, variationId: 0, variation: {}, quantity }
}

function coupon (code: string, overrides: Partial<Coupon> = {}): Coupon {
  return makeCoupon({ code, ...overrides })
}

function event (type: string, occurredAt: string, value = 0, visitor: string | null = 'visitor-a'): AnalyticsEvent {
  return { type, visitor, productId: 7, value, drawerAdd: type === 'add_to_cart', occurredAt, data: { source: 'test' } }
}

const emptyCart: CartData = { lines: [], coupons: [] }
const cartKey = (): string => `cart-${randomUUID()}`

for (const backend of storageBackends()) {
  test(`${backend.name} storage`, { skip: backend.skip }, async (t) => {
    const storage = await backend.create()
    t.teardown(() => storage.dispose())

    t.test('ping and name', async (t) => {
      await storage.ping()
      t.equal(storage.name, backend.name)
    })

    t.test('products', async (t) => {
      const catalogue: Product[] = [
        ...Array.from({ length: 120 }, (_, index) => product(1000 + index)),
        product(1, { name: 'Blue Hoodie', sku: 'HOOD-BLUE', categories: [{ id: 5, name: 'Clothing', slug: 'clothing' }] }),
        product(2, { type: 'variable', name: 'T-Shirt', sku: 'TEE', variationIds: [3], attributes: [{ name: 'pa_color', label: 'Color', options: ['red'] }] }),
        product(3, { type: 'variation', parentId: 2, name: 'T-Shirt - Red', sku: 'TEE-RED', variationAttributes: { pa_color: 'red' } }),
        product(4, { status: 'draft', name: 'Secret draft' }),
        product(5, { catalogVisibility: 'hidden', name: '100% wool scarf', categories: [{ id: 5, name: 'Clothing', slug: 'clothing' }] })
      ]
      await storage.upsertProducts(catalogue)

      t.strictSame(await storage.getProduct(1), catalogue[120], 'a product comes back whole')
      t.equal(await storage.getProduct(999), null)

      await storage.upsertProducts([product(1, { name: 'Navy Hoodie', sku: 'HOOD-NAVY', categories: [{ id: 5, name: 'Clothing', slug: 'clothing' }] })])
      t.equal((await storage.getProduct(1))?.name, 'Navy Hoodie', 'upsert replaces')

      const some = await storage.getProducts([1, 3, 999, 1])
      t.same([...some.keys()].sort(), [1, 3])
      t.equal(some.get(3)?.parentId, 2)
      t.equal((await storage.getProducts([])).size, 0)

      const firstPage = await storage.listProducts({})
      t.equal(firstPage.total, 124, 'variations are left out by default')
      t.same(firstPage.products.map((p) => p.id), [1, 2, 4, 5, 1000, 1001, 1002, 1003, 1004, 1005], 'ordered by id, 10 per page')

      const third = await storage.listProducts({ page: 3, perPage: 20 })
      t.same(third.products.map((p) => p.id), Array.from({ length: 20 }, (_, index) => 1036 + index))
      t.equal(third.total, 124)
      t.same(await storage.listProducts({ page: 50 }), { products: [], total: 124 }, 'past the end: no products, total kept')
      t.equal((await storage.listProducts({ perPage: 500 })).products.length, 100, 'perPage is capped at 100')

      t.same((await storage.listProducts({ types: ['variation'] })).products.map((p) => p.id), [3])
      t.same((await storage.listProducts({ statuses: ['draft'] })).products.map((p) => p.id), [4])
      t.same((await storage.listProducts({ visibilities: ['hidden', 'search'] })).products.map((p) => p.id), [5])
      t.same((await storage.listProducts({ categoryId: 5 })).products.map((p) => p.id), [1, 5])
      t.same((await storage.listProducts({ ids: [3, 2, 1004] })).products.map((p) => p.id), [2, 1004])
      t.same((await storage.listProducts({ search: 'hood' })).products.map((p) => p.id), [1], 'search matches the name case-insensitively')
      t.same((await storage.listProducts({ search: ' hood-navy ' })).products.map((p) => p.id), [1], 'search matches the SKU')
      t.same((await storage.listProducts({ search: '100%' })).products.map((p) => p.id), [5], '% is matched literally')
      t.equal((await storage.listProducts({ search: '%' })).products.length, 1)
      t.equal((await storage.listProducts({ search: '_' })).total, 0, '_ is matched literally')
      t.same((await storage.listProducts({ search: 'tee', types: ['simple', 'variable', 'variation'] })).products.map((p) => p.id), [2, 3])
      t.same(await storage.listProducts({ statuses: ['publish'], categoryId: 5, visibilities: ['visible'], search: 'navy' }),
        { products: [await storage.getProduct(1)], total: 1 }, 'filters combine')
    })

    t.test('updateCart creates, updates and versions a cart', async (t) => {
      const key = cartKey()
      t.equal(await storage.getCart(key), null)

      const first = await storage.updateCart(key, (current) => {
        t.same(current.data, emptyCart, 'a new cart starts empty')
        t.equal(current.version, 0)
        t.equal(current.userId, null)
        return { data: { lines: [line(1)], coupons: [] }, result: 'added' }
      })
      t.equal(first.result, 'added')
      t.equal(first.cart.version, 1)
      t.same(first.cart.data, { lines: [line(1)], coupons: [] })
      t.strictSame(await storage.getCart(key), first.cart, 'getCart sees what updateCart returned')
      t.match(first.cart.updatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

      const second = await storage.updateCart(key, async (current) =>
        ({ data: { ...current.data, coupons: ['save10'] }, result: current.version }))
      t.equal(second.result, 1, 'update sees the stored version')
      t.equal(second.cart.version, 2)
      t.same(second.cart.data.coupons, ['save10'])

      const readOnly = await storage.updateCart(key, (current) => ({ result: current.data.lines.length }))
      t.equal(readOnly.result, 1)
      t.strictSame(readOnly.cart, second.cart, 'returning no data stores nothing')
      t.strictSame(await storage.getCart(key), second.cart)
    })

    t.test('updateCart keeps no row when a new cart gets no data', async (t) => {
      const key = cartKey()
      const outcome = await storage.updateCart(key, () => ({ result: 42 }))
      t.equal(outcome.result, 42)
      t.equal(outcome.cart.key, key)
      t.equal(outcome.cart.version, 0)
      t.same(outcome.cart.data, emptyCart)
      t.equal(await storage.getCart(key), null)
    })

    t.test('an exception in updateCart rolls back and is rethrown', async (t) => {
      const key = cartKey()
      await storage.updateCart(key, () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
      const failure = new Error('nope')
      await t.rejects(storage.updateCart(key, async (current) => {
        await storage.setCartUser(key, 77)
        current.data.lines.push(line(2))
        throw failure
      }), failure)
      const after = await storage.getCart(key)
      t.equal(after?.version, 1)
      t.same(after?.data.lines, [line(1)])
      t.equal(after?.userId, null, 'a storage call made inside the callback rolls back with it')

      const fresh = cartKey()
      await t.rejects(storage.updateCart(fresh, () => { throw failure }), failure)
      t.equal(await storage.getCart(fresh), null, 'no row is left for a new key')
    })

    t.test('the callback may read from storage', async (t) => {
      const key = cartKey()
      const { result } = await storage.updateCart(key, async (current) => {
        const found = await storage.getProduct(1)
        return { data: { ...current.data, lines: [line(found?.id ?? 0)] }, result: found?.name }
      })
      t.equal(result, 'Navy Hoodie')
      t.same((await storage.getCart(key))?.data.lines, [line(1)])
    })

    t.test('50 concurrent updates of one cart are all applied, one after the other', async (t) => {
      const key = cartKey()
      let running = 0
      let overlapped = false
      const updates = Array.from({ length: 50 }, (_, index) => storage.updateCart(key, async (current) => {
        running++
        overlapped ||= running > 1
        await storage.getProduct(1)
        running--
        const [first, ...rest] = current.data.lines
        const counter = first ?? line(1, 0)
        return {
          data: { ...current.data, lines: [{ ...counter, quantity: counter.quantity + 1 }, ...rest, line(100 + index)] },
          result: index
        }
      }))
      const results = await Promise.all(updates)
      t.same(results.map((r) => r.result).sort((a, b) => a - b), Array.from({ length: 50 }, (_, index) => index))
      t.same(results.map((r) => r.cart.version).sort((a, b) => a - b), Array.from({ length: 50 }, (_, index) => index + 1),
        'every call saw the version its predecessor wrote')
      t.notOk(overlapped, 'no two callbacks ran at the same time')
      const cart = await storage.getCart(key)
      t.equal(cart?.version, 50)
      t.equal(cart?.data.lines[0]?.quantity, 50, 'no increment was lost')
      t.equal(cart?.data.lines.length, 51, 'no appended line was lost')
    })

    t.test('carts bound to users', async (t) => {
      const older = cartKey()
      const newer = cartKey()
      await storage.updateCart(older, () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
      await storage.updateCart(newer, () => ({ data: { lines: [line(2)], coupons: [] }, result: null }))
      t.equal(await storage.findUserCart(501), null)

      await storage.setCartUser(newer, 501)
      await storage.setCartUser(older, 501)
      const bound = await storage.getCart(older)
      t.equal(bound?.userId, 501)
      t.equal(bound?.version, 1, 'binding does not change the cart data version')
      t.equal((await storage.findUserCart(501))?.key, older, 'the most recently touched cart wins')

      await storage.updateCart(newer, (current) => ({ data: { ...current.data, coupons: ['x'] }, result: null }))
      t.equal((await storage.findUserCart(501))?.key, newer)
      t.equal((await storage.updateCart(newer, (current) => ({ result: current.userId }))).result, 501)

      await storage.setCartUser(newer, null)
      t.equal((await storage.getCart(newer))?.userId, null)
      t.equal((await storage.findUserCart(501))?.key, older)

      await storage.setCartUser(cartKey(), 501)
      t.equal((await storage.findUserCart(501))?.key, older, 'binding a cart that is not stored does nothing')

      await storage.deleteCart(older)
      t.equal(await storage.getCart(older), null)
      t.equal(await storage.findUserCart(501), null)
      await storage.deleteCart(older)
    })

    t.test('coupons', async (t) => {
      await storage.upsertCoupons([
        coupon('  SAVE10 ', { usageCount: 3, usageLimit: 10, expiresAt: '2030-01-01T00:00:00.000Z' }),
        coupon('FreeShip', { discountType: 'fixed_cart', amount: 500, freeShipping: true, minimumAmount: 2000, description: 'Free shipping' })
      ])
      t.strictSame(await storage.getCoupon('save10'),
        coupon('save10', { usageCount: 3, usageLimit: 10, expiresAt: '2030-01-01T00:00:00.000Z' }), 'stored with a normalised code')
      t.equal((await storage.getCoupon(' FREESHIP '))?.code, 'freeship', 'looked up by a normalised code')
      t.equal(await storage.getCoupon('missing'), null)

      const found = await storage.getCoupons(['SAVE10', 'freeship', 'missing', 'save10'])
      t.same([...found.keys()].sort(), ['freeship', 'save10'])
      t.equal(found.get('freeship')?.amount, 500)
      t.equal((await storage.getCoupons([])).size, 0)

      await storage.upsertCoupons([coupon('save10', { amount: 15, usageCount: 4 })])
      const updated = await storage.getCoupon('SAVE10')
      t.equal(updated?.amount, 15)
      t.equal(updated?.usageCount, 4)
    })

    t.test('users and sessions', async (t) => {
      const created = await storage.ensureUser({
        email: 'Ada@Example.COM', displayName: 'Ada', passwordHash: 'hash-1', capabilities: ['manage_options']
      })
      t.equal(created.email, 'ada@example.com', 'e-mail is stored in lower case')
      t.type(created.id, 'number')
      const again = await storage.ensureUser({ email: 'ada@example.com', displayName: 'Other', passwordHash: 'hash-2', capabilities: [] })
      t.strictSame(again, created, 'ensureUser returns the existing user unchanged')
      t.strictSame(await storage.getUserByEmail('ADA@example.com'), created)
      t.strictSame(await storage.getUser(created.id), created)
      t.equal(await storage.getUserByEmail('nobody@example.com'), null)
      t.equal(await storage.getUser(created.id + 1000), null)

      const [one, two] = await Promise.all([
        storage.ensureUser({ email: 'grace@example.com', displayName: 'Grace', passwordHash: 'h', capabilities: [] }),
        storage.ensureUser({ email: 'Grace@example.com', displayName: 'Grace', passwordHash: 'h', capabilities: [] })
      ])
      t.equal(one.id, two.id, 'concurrent ensureUser calls agree')

      const session = { id: randomUUID(), userId: created.id, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-15T10:00:00.000Z' }
      await storage.createSession(session)
      t.strictSame(await storage.getSession(session.id), session)
      t.equal(await storage.getSession('missing'), null)
      await storage.deleteSession(session.id)
      t.equal(await storage.getSession(session.id), null)
    })

    t.test('settings', async (t) => {
      t.equal(await storage.getSettings(), null, 'null before the first save')
      t.equal(await storage.saveSettings({ a: 1 }, 3), null, 'a version that does not exist conflicts')
      t.strictSame(await storage.saveSettings({ a: 1 }, 0), { document: { a: 1 }, version: 1 })
      t.equal(await storage.saveSettings({ a: 2 }, 0), null, '0 conflicts once settings exist')
      t.strictSame(await storage.saveSettings({ a: 2, nested: { b: [1, 2] } }, 1), { document: { a: 2, nested: { b: [1, 2] } }, version: 2 })
      t.equal(await storage.saveSettings({ a: 3 }, 1), null, 'a stale version conflicts')
      t.strictSame(await storage.saveSettings({ a: 4 }), { document: { a: 4 }, version: 3 }, 'without a version the save always wins')
      t.strictSame(await storage.getSettings(), { document: { a: 4 }, version: 3 })

      const racing = await Promise.all([storage.saveSettings({ racer: 1 }, 3), storage.saveSettings({ racer: 2 }, 3)])
      t.equal(racing.filter((saved) => saved === null).length, 1, 'of two saves from one version, one conflicts')
      t.equal((await storage.getSettings())?.version, 4)
    })

    t.test('analytics', async (t) => {
      t.equal(await storage.insertAnalyticsEvents([]), 0)
      const inserted = await storage.insertAnalyticsEvents([
        event('add_to_cart', '2025-01-31T23:59:59.999Z', 100),
        event('add_to_cart', '2025-02-01T00:00:00.000Z', 250, 'visitor-b'),
        event('add_to_cart', '2025-02-01T12:30:00.000Z', 50),
        { ...event('add_to_cart', '2025-02-01T13:00:00.000Z', 70), drawerAdd: false },
        event('view', '2025-02-01T23:00:00.000-02:00', 5),
        { ...event('checkout', '2025-02-02T08:00:00.000Z', 9_000_000_000, null), productId: null, drawerAdd: true },
        { ...event('checkout', '2025-02-02T09:00:00.000Z', 9_000_000_000, null), drawerAdd: true },
        event('view', '2025-02-03T00:00:00.000Z', 0, 'visitor-c')
      ])
      t.equal(inserted, 8)
      t.strictSame(await storage.analyticsSummary('2025-02-01', '2025-02-02'), {
        days: [
          { day: '2025-02-01', type: 'add_to_cart', count: 3, adds: 2, addValue: '300' },
          { day: '2025-02-02', type: 'checkout', count: 2, adds: 2, addValue: '18000000000' },
          { day: '2025-02-02', type: 'view', count: 1, adds: 0, addValue: '0' }
        ],
        visitors: 2
      }, 'grouped by UTC day and type, both ends inclusive; sums exact beyond 2^32; visitors distinct, nulls not counted')
      t.strictSame(await storage.analyticsSummary('2024-01-01', '2024-12-31'), { days: [], visitors: 0 })

      t.equal(await storage.deleteAnalyticsBefore('2025-02-01T00:00:00.000Z', 5), 1, 'only events before the instant')
      t.equal(await storage.deleteAnalyticsBefore('2025-02-02T08:30:00.000Z', 2), 2, 'at most the limit, oldest first')
      t.strictSame((await storage.analyticsSummary('2025-01-01', '2025-12-31')).days.map((row) => [row.day, row.type, row.count]), [
        ['2025-02-01', 'add_to_cart', 1],
        ['2025-02-02', 'checkout', 2],
        ['2025-02-02', 'view', 1],
        ['2025-02-03', 'view', 1]
      ], 'the two oldest remaining went')
      t.equal(await storage.deleteAnalyticsBefore('2025-02-02T08:30:00.000Z'), 3, 'without a limit, every one before the instant')
      t.equal(await storage.deleteAnalyticsBefore('2025-02-02T08:30:00.000Z'), 0)

      t.equal(await storage.resetAnalytics(), 2)
      t.strictSame(await storage.analyticsSummary('2025-01-01', '2025-12-31'), { days: [], visitors: 0 })
      t.equal(await storage.resetAnalytics(), 0)
    })

    t.test('meta', async (t) => {
      let created = 0
      const values = await Promise.all(Array.from({ length: 10 }, (_, index) => storage.getOrCreateMeta('secret', () => {
        created++
        return `value-${index}`
      })))
      t.equal(new Set(values).size, 1, 'concurrent callers agree on one value')
      t.ok(created >= 1)
      t.equal(await storage.getOrCreateMeta('secret', () => t.fail('not called again') as never), values[0])
      t.equal(await storage.getOrCreateMeta('other', () => 'x'), 'x')
    })

    t.test('migrations run again apply nothing', async (t) => {
      t.same(await storage.migrate(), [])
      t.same(await Promise.all([storage.migrate(), storage.migrate()]), [[], []])
      t.ok(await storage.getProduct(1), 'data survives')
    })
  })

  test(`${backend.name} migrations on a fresh database`, { skip: backend.skip }, async (t) => {
    const { clients: [first, second], dispose } = await backend.createBareClients()
    t.teardown(dispose)
    const applied = await Promise.all([migrate(first), migrate(second)])
    const ids = migrations.map((migration) => migration.id)
    t.same(applied.flat().sort(), ids, 'instances migrating together apply each migration exactly once')
    t.same(await migrate(first), [], 'a second run applies nothing')
    const { rows } = await second.query<{ id: string }>('SELECT id FROM svc_schema_migrations ORDER BY id')
    t.same(rows.map((row) => row.id), ids)
    const { rows: tables } = await first.query<{ count: number }>('SELECT count(*)::int AS count FROM svc_carts')
    t.same(tables, [{ count: 0 }])
  })
}
