/** The `CartStore` contract: serial cart writes, versions, user binding, the one-statement read and snapshots. */
import { makeCoupon } from '../kernel/domain/fixtures.ts'
import { cartKey, contract, emptyCart, line, product } from './fixtures/contract.ts'

contract('CartStore', async (t, storage) => {
  await storage.upsertProducts([product(1, { name: 'Navy Hoodie' })])

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

  t.test('a storage call inside the callback sees the transaction and is kept with it', async (t) => {
    const key = cartKey()
    await storage.updateCart(key, () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
    const { cart } = await storage.updateCart(key, async (current) => {
      await storage.setCartUser(key, 78)
      return { data: { ...current.data, coupons: ['inside'] }, result: null }
    })
    t.equal(cart.userId, 78, 'the write keeps the binding made inside its callback')
    t.equal(cart.version, 2)
    t.strictSame(await storage.getCart(key), cart)
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

  t.test('a binding made while the cart is being written waits for the write and is not lost', async (t) => {
    const key = cartKey()
    await storage.updateCart(key, () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    let entered!: () => void
    const inside = new Promise<void>((resolve) => { entered = resolve })
    const writing = storage.updateCart(key, async (current) => {
      entered()
      await held
      return { data: { ...current.data, coupons: ['written'] }, result: null }
    })
    await inside
    const binding = storage.setCartUser(key, 55)
    release()
    await Promise.all([writing, binding])
    const cart = await storage.getCart(key)
    t.equal(cart?.userId, 55, 'the binding is kept')
    t.same(cart?.data.coupons, ['written'], 'and so is the write')
    t.equal(cart?.version, 2)
  })

  t.test('a cart written inside another cart\'s callback commits and rolls back with it', async (t) => {
    const outer = cartKey()
    const inner = cartKey()
    const failure = new Error('outer fails')
    await t.rejects(storage.updateCart(outer, async () => {
      await storage.updateCart(inner, () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
      t.equal((await storage.getCart(inner))?.version, 1, 'the callback sees its nested write')
      throw failure
    }), failure)
    t.equal(await storage.getCart(inner), null, 'the nested write rolled back with the outer one')

    const { cart } = await storage.updateCart(outer, async (current) => {
      await storage.updateCart(inner, () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
      await t.rejects(storage.updateCart(inner, async () => { throw failure }), failure)
      return { data: { ...current.data, lines: [line(1)] }, result: null }
    })
    t.equal(cart.version, 1)
    t.equal((await storage.getCart(inner))?.version, 1, 'a nested write that failed undid only itself')
  })

  t.test('a cart read is the caller\'s to change', async (t) => {
    const key = cartKey()
    const { cart } = await storage.updateCart(key, () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
    cart.data.lines.push(line(2))
    const read = await storage.getCart(key)
    read!.data.coupons.push('mine')
    t.same((await storage.getCart(key))?.data, { lines: [line(1)], coupons: [] })
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

  t.test('readCart: the cart, its products and coupons and the versions in one read', async (t) => {
    await storage.upsertProducts([
      product(2, { type: 'variable', variationIds: [21] }),
      product(21, { type: 'variation', parentId: 2 }),
      product(3)
    ])
    await storage.upsertCoupons([makeCoupon({ code: 'ten' }), makeCoupon({ code: 'other' })])

    const missing = await storage.readCart(cartKey())
    t.equal(missing.cart, null, 'a cart not stored')
    t.equal(missing.products.size, 0)
    t.equal(missing.coupons.size, 0)
    t.equal(missing.settingsVersion, 0, 'no settings stored: version 0')

    const key = cartKey()
    const { cart, versions } = await storage.updateCart(key, () => ({ data: { lines: [line(1), line(2, 1, 21)], coupons: ['TEN'] }, result: null }))
    t.ok(versions, 'a write tells the versions it saw')
    const read = await storage.readCart(key)
    t.strictSame(read.cart, cart, 'the cart as written')
    t.strictSame([...read.products.keys()].sort((a, b) => a - b), [1, 2, 21], 'its products, the variation\'s parent too')
    t.strictSame([...read.coupons.keys()], ['ten'], 'its coupons, by normalised code')
    t.equal(read.catalogVersion, versions!.catalogVersion)
    t.equal(read.settingsVersion, versions!.settingsVersion)

    await storage.saveSettings({ enabled: true })
    t.equal((await storage.readCart(key)).settingsVersion, 1, 'the settings\' version comes along')
    const written = await storage.updateCart(key, (current) => ({ data: current.data, result: null }))
    t.equal(written.versions?.settingsVersion, 1, 'and a write tells it too')
  })

  t.test('snapshots: stored for one version of the cart with an opaque stamp, dropped by any write', async (t) => {
    // The platform's rule (CartService.readSnapshot): current while the stamp names the versions as they are now.
    const current = async (key: string, snapshotKey: string): Promise<string | null> => {
      const stored = await storage.getCartSnapshot(key)
      return stored !== null && stored.stamp === `${snapshotKey}:${stored.catalogVersion}:${stored.settingsVersion}` ? stored.snapshot : null
    }
    t.equal(await storage.getCartSnapshot(cartKey()), null, 'no snapshot of a cart not stored')
    const key = cartKey()
    const { cart } = await storage.updateCart(key, () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
    t.equal(await storage.getCartSnapshot(key), null, 'none before one is saved')

    const stamp = (catalog: number, settings: number): string => `k1:${catalog}:${settings}`
    const now = await storage.readCart(key)
    t.notOk(await storage.saveCartSnapshot(key, cart.version - 1, stamp(now.catalogVersion, now.settingsVersion), '{"old":true}'),
      'a snapshot of an older version of the cart is not stored')
    t.notOk(await storage.saveCartSnapshot(cartKey(), 1, 'x', '{}'), 'nor of a cart not stored')
    t.ok(await storage.saveCartSnapshot(key, cart.version, stamp(now.catalogVersion, now.settingsVersion), '{"state":1}'))
    t.strictSame(await storage.getCartSnapshot(key),
      { snapshot: '{"state":1}', stamp: stamp(now.catalogVersion, now.settingsVersion), catalogVersion: now.catalogVersion, settingsVersion: now.settingsVersion, version: cart.version },
      'the bytes and the stamp as stored, with the versions as they are now and the cart\'s version it was stored for')
    t.equal(await current(key, 'k1'), '{"state":1}', 'a current snapshot is answered')
    t.equal(await current(key, 'k2'), null, 'not for another snapshot key')
    t.equal(await current(key, 'k'), null, 'nor for a key that is a prefix of its own')
    t.strictSame((await storage.readCart(key)).cart, cart, 'the full read still reads the cart itself')

    t.ok(await storage.saveCartSnapshot(key, cart.version, 'anything: storage does not read it', '{"opaque":true}'))
    t.equal((await storage.getCartSnapshot(key))?.stamp, 'anything: storage does not read it', 'any stamp is stored as it is')

    await storage.saveCartSnapshot(key, cart.version, stamp(now.catalogVersion, now.settingsVersion), '{"state":1}')
    await storage.upsertProducts([product(3, { name: 'Not in the cart, renamed' })])
    const afterProduct = await storage.getCartSnapshot(key)
    t.equal(afterProduct?.catalogVersion, now.catalogVersion + 1, 'a product write: the catalog version read with it moves')
    t.equal(afterProduct?.snapshot, '{"state":1}', 'the snapshot itself is kept: the caller decides')
    t.equal(await current(key, 'k1'), null, 'so it is no longer current')

    const afterCatalog = await storage.readCart(key)
    await storage.saveCartSnapshot(key, cart.version, stamp(afterCatalog.catalogVersion, afterCatalog.settingsVersion), '{"state":2}')
    await storage.upsertCoupons([makeCoupon({ code: 'other', amount: 5 })])
    t.equal(await current(key, 'k1'), null, 'a coupon write too')

    const beforeSettings = await storage.readCart(key)
    await storage.saveCartSnapshot(key, cart.version, stamp(beforeSettings.catalogVersion, beforeSettings.settingsVersion), '{"state":3}')
    await storage.saveSettings({ enabled: false })
    t.equal((await storage.getCartSnapshot(key))?.settingsVersion, beforeSettings.settingsVersion + 1, 'a settings write moves the settings version')
    t.equal(await current(key, 'k1'), null, 'so the snapshot is not current')

    const latest = await storage.readCart(key)
    await storage.saveCartSnapshot(key, cart.version, stamp(latest.catalogVersion, latest.settingsVersion), '{"state":4}')
    t.equal(await current(key, 'k1'), '{"state":4}')
    await storage.setCartUser(key, 9)
    t.equal(await storage.getCartSnapshot(key), null, 'binding the cart drops its snapshot')
    await storage.saveCartSnapshot(key, cart.version, stamp(latest.catalogVersion, latest.settingsVersion), '{"state":"bound"}')
    t.equal(await storage.getCartSnapshot(key), null, 'a cart bound to a user answers none: a snapshot is a guest\'s view')
    await storage.setCartUser(key, null)

    await storage.saveCartSnapshot(key, cart.version, stamp(latest.catalogVersion, latest.settingsVersion), '{"state":5}')
    t.equal(await current(key, 'k1'), '{"state":5}')
    await storage.updateCart(key, (currentCart) => ({ data: { ...currentCart.data, lines: [line(1, 2)] }, result: null }))
    t.equal(await storage.getCartSnapshot(key), null, 'a write of the cart drops its snapshot')
  })
})
