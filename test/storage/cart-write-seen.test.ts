/**
 * The `CartStore` contract of a write after a read (`updateCart`'s `seen`) and of a snapshot stored with the data
 * (`CartUpdate.snapshot`): no lost update however the read and the write interleave, versions grow by one, and a
 * snapshot lives exactly as long as the version it was written with.
 */
import { StaleReadError } from '../../storage/contract/index.ts'
import { cartKey, contract, line, product } from './fixtures/contract.ts'

contract('CartStore writes after a read', async (t, storage) => {
  await storage.upsertProducts([product(1), product(2)])
  const one = { lines: [line(1)], coupons: [] }

  t.test('a cart still as read is written once, from the read', async (t) => {
    const key = cartKey()
    await storage.updateCart(key, () => ({ data: one, result: null }))
    const { cart: seen } = await storage.readCart(key)
    const runs: number[] = []
    const { cart, result, versions } = await storage.updateCart(key, (current) => {
      runs.push(current.version)
      return { data: { ...current.data, lines: [...current.data.lines, line(2)] }, result: 'added' }
    }, { seen })
    t.same(runs, [1], 'one run, with the cart as read')
    t.equal(result, 'added')
    t.equal(cart.version, 2)
    t.same(cart.data.lines.map((l) => l.productId), [1, 2])
    t.ok(versions !== undefined && versions.catalogVersion > 0, 'the versions the write saw')
    t.strictSame(await storage.getCart(key), cart)
  })

  t.test('a cart written since the read is changed again from what is stored: nothing is lost', async (t) => {
    const key = cartKey()
    await storage.updateCart(key, () => ({ data: one, result: null }))
    const { cart: seen } = await storage.readCart(key)
    await storage.updateCart(key, (current) => ({ data: { ...current.data, coupons: ['meanwhile'] }, result: null }))
    const runs: number[] = []
    const { cart, result } = await storage.updateCart(key, (current) => {
      runs.push(current.version)
      return { data: { ...current.data, lines: [...current.data.lines, line(2)] }, result: current.version }
    }, { seen })
    t.equal(runs.at(-1), 2, 'the last run saw the stored version')
    t.equal(result, 2, 'the answer is the stored run\'s')
    t.equal(cart.version, 3, 'one version more')
    t.same(cart.data.coupons, ['meanwhile'], 'the other write is kept')
    t.same(cart.data.lines.map((l) => l.productId), [1, 2])
  })

  t.test('a cart bound to a user since the read is changed again with its owner', async (t) => {
    const key = cartKey()
    await storage.updateCart(key, () => ({ data: one, result: null }))
    const { cart: seen } = await storage.readCart(key)
    await storage.setCartUser(key, 91)
    const owners: Array<number | null> = []
    const { cart } = await storage.updateCart(key, (current) => {
      owners.push(current.userId)
      return { data: { ...current.data, coupons: ['x'] }, result: null }
    }, { seen })
    t.equal(owners.at(-1), 91, 'binding does not move the version, yet the change sees the owner')
    t.equal(cart.userId, 91)
    t.equal(cart.version, 2)
  })

  t.test('a cart read as not stored is stored at version 1; one stored meanwhile is changed from what is stored', async (t) => {
    const fresh = cartKey()
    const { cart: none } = await storage.readCart(fresh)
    t.equal(none, null)
    const created = await storage.updateCart(fresh, (current) => ({ data: { ...current.data, lines: [line(1)] }, result: current.version }), { seen: none })
    t.equal(created.result, 0)
    t.equal(created.cart.version, 1)
    t.strictSame(await storage.getCart(fresh), created.cart)

    const raced = cartKey()
    await storage.updateCart(raced, () => ({ data: { lines: [line(2)], coupons: [] }, result: null }))
    const { cart } = await storage.updateCart(raced, (current) => ({ data: { ...current.data, lines: [...current.data.lines, line(1)] }, result: null }), { seen: null })
    t.equal(cart.version, 2)
    t.same(cart.data.lines.map((l) => l.productId), [2, 1], 'the first write is kept')
  })

  t.test('an update given no data stores nothing, not even a new cart', async (t) => {
    const key = cartKey()
    const { result, cart } = await storage.updateCart(key, () => ({ result: 'nothing' }), { seen: null })
    t.equal(result, 'nothing')
    t.equal(cart.version, 0)
    t.equal(await storage.getCart(key), null)
  })

  t.test('50 concurrent writes, each from its own earlier read, are all applied', async (t) => {
    const key = cartKey()
    await storage.updateCart(key, () => ({ data: { lines: [line(1, 0)], coupons: [] }, result: null }))
    const writes = Array.from({ length: 50 }, async () => {
      const { cart: seen } = await storage.readCart(key)
      return storage.updateCart(key, (current) => {
        const [counter, ...rest] = current.data.lines
        return { data: { ...current.data, lines: [{ ...counter!, quantity: counter!.quantity + 1 }, ...rest] }, result: null }
      }, { seen })
    })
    const written = await Promise.all(writes)
    t.same(written.map((w) => w.cart.version).sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i + 2), 'each write one version')
    const cart = await storage.getCart(key)
    t.equal(cart?.version, 51)
    t.equal(cart?.data.lines[0]?.quantity, 50, 'no increment was lost')
  })

  t.test('a snapshot written with the data belongs to the new version; the next write drops it', async (t) => {
    for (const seen of [false, true]) {
      const key = cartKey()
      const { cart: before } = await storage.readCart(key)
      const { cart } = await storage.updateCart(key, (current) => ({
        data: { ...current.data, lines: [line(1)] },
        result: null,
        snapshot: { stamp: 'stamp-1', snapshot: '{"lines":1}' }
      }), seen ? { seen: before } : undefined)
      t.match(await storage.getCartSnapshot(key), { snapshot: '{"lines":1}', stamp: 'stamp-1' }, `stored with version ${cart.version} (seen: ${seen})`)
      t.notOk(await storage.saveCartSnapshot(key, cart.version - 1, 'old', '{}'), 'not replaced by one of the older version')
      const { cart: again } = await storage.readCart(key)
      await storage.updateCart(key, (current) => ({ data: { ...current.data, coupons: ['c'] }, result: null }), seen ? { seen: again } : undefined)
      t.equal(await storage.getCartSnapshot(key), null, 'a write without one drops it')
    }
  })

  t.test('a new key written at a catalog version: stored while the catalog is at it, else nothing and StaleReadError', async (t) => {
    const { catalogVersion } = await storage.getVersions()
    const fresh = cartKey()
    const created = await storage.updateCart(fresh, (current) => ({ data: { ...current.data, lines: [line(1)] }, result: current.version }), { seen: null, newCartAt: catalogVersion })
    t.equal(created.result, 0, 'the update ran with an empty cart')
    t.equal(created.cart.version, 1)
    t.equal(created.versions?.catalogVersion, catalogVersion)
    t.strictSame(await storage.getCart(fresh), created.cart)

    // The key is taken: the stored cart is not touched, and the update is not run again with it.
    const runs: number[] = []
    await t.rejects(storage.updateCart(fresh, (current) => {
      runs.push(current.version)
      return { data: { ...current.data, lines: [line(2)] }, result: null }
    }, { seen: null, newCartAt: catalogVersion }), StaleReadError)
    t.ok(runs.every((version) => version === 0), 'never run with the stored cart')
    t.same((await storage.getCart(fresh))?.data.lines.map((l) => l.productId), [1], 'the stored cart is as it was')
    t.equal((await storage.getCart(fresh))?.version, 1)

    // The catalog moved since the products were read: nothing is stored.
    await storage.upsertProducts([product(1, { regularPrice: 1 })])
    const other = cartKey()
    await t.rejects(storage.updateCart(other, (current) => ({ data: { ...current.data, lines: [line(1)] }, result: null }), { seen: null, newCartAt: catalogVersion }), StaleReadError)
    t.equal(await storage.getCart(other), null, 'not stored')
    const now = (await storage.getVersions()).catalogVersion
    const stored = await storage.updateCart(other, (current) => ({ data: { ...current.data, lines: [line(1)] }, result: null }), { seen: null, newCartAt: now })
    t.equal(stored.cart.version, 1, 'stored at the version as it is')
  })

  t.test('a snapshot of a write that stores nothing is not stored', async (t) => {
    const key = cartKey()
    await storage.updateCart(key, () => ({ data: one, result: null }))
    await storage.updateCart(key, () => ({ result: null, snapshot: { stamp: 's', snapshot: '{}' } }))
    t.equal(await storage.getCartSnapshot(key), null)
  })
})
