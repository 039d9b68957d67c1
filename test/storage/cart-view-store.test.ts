/**
 * The `CartViewStore` contract beyond what the cart's own tests check (cart-store.test.ts: a snapshot per version, its
 * stamp, the versions read with it, dropped by a write or a binding): the snapshot's place among the cart's writes.
 */
import { cartKey, contract, line } from './fixtures/contract.ts'

contract('CartViewStore', async (t, storage) => {
  const one = { lines: [line(1)], coupons: [] }

  t.test('a deleted cart takes its snapshot with it: the same key stored again has none', async (t) => {
    const key = cartKey()
    const { cart } = await storage.updateCart(key, () => ({ data: one, result: null }))
    t.ok(await storage.saveCartSnapshot(key, cart.version, 's', '{"before":true}'))
    await storage.deleteCart(key)
    t.equal(await storage.getCartSnapshot(key), null, 'none once the cart is deleted')
    const again = await storage.updateCart(key, () => ({ data: one, result: null }))
    t.equal(again.cart.version, cart.version, 'stored again at the same version')
    t.equal(await storage.getCartSnapshot(key), null, 'and still without the old snapshot')
  })

  t.test('a later save for the same version replaces the snapshot', async (t) => {
    const key = cartKey()
    const { cart } = await storage.updateCart(key, () => ({ data: one, result: null }))
    t.ok(await storage.saveCartSnapshot(key, cart.version, 'a', '{"n":1}'))
    t.ok(await storage.saveCartSnapshot(key, cart.version, 'b', '{"n":2}'))
    const stored = await storage.getCartSnapshot(key)
    t.strictSame([stored?.stamp, stored?.snapshot, stored?.version], ['b', '{"n":2}', cart.version])
  })

  t.test('a save inside updateCart\'s callback joins its transaction: kept when it commits, gone when it rolls back', async (t) => {
    const key = cartKey()
    const { cart } = await storage.updateCart(key, () => ({ data: one, result: null }))
    await t.rejects(storage.updateCart(key, async (current) => {
      t.ok(await storage.saveCartSnapshot(key, current.version, 'inside', '{"rolled":"back"}'), 'stored inside the transaction')
      throw new Error('refused')
    }), { message: 'refused' })
    t.equal(await storage.getCartSnapshot(key), null, 'rolled back with the callback')

    const { result } = await storage.updateCart(key, async (current) => ({
      result: await storage.saveCartSnapshot(key, current.version, 'inside', '{"kept":true}')
    }))
    t.equal(result, true)
    t.strictSame((await storage.getCartSnapshot(key))?.snapshot, '{"kept":true}', 'a callback that stores no data commits the snapshot')
    t.equal((await storage.getCart(key))?.version, cart.version, 'and the cart\'s version is unchanged')
  })

  t.test('a save for the version a write is replacing waits for the write, then is refused', async (t) => {
    const key = cartKey()
    const { cart } = await storage.updateCart(key, () => ({ data: one, result: null }))
    let entered!: () => void
    const inside = new Promise<void>((resolve) => { entered = resolve })
    let release!: () => void
    const gate = new Promise<void>((resolve) => { release = resolve })
    const writing = storage.updateCart(key, async (current) => {
      entered()
      await gate
      return { data: { ...current.data, lines: [line(1, 2)] }, result: null }
    })
    await inside
    let settled = false
    const saving = storage.saveCartSnapshot(key, cart.version, 'old', '{"old":true}').finally(() => { settled = true })
    await new Promise((resolve) => setTimeout(resolve, 50))
    t.notOk(settled, 'the save waits while the cart is being written')
    release()
    const written = await writing
    t.equal(written.cart.version, cart.version + 1)
    t.equal(await saving, false, 'then finds a newer version and stores nothing')
    t.equal(await storage.getCartSnapshot(key), null)
  })
})
