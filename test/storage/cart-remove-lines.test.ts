/**
 * The `CartStore` contract of `removeCartLines`: lines removed from a guest's cart in one write with no read before it,
 * only when the cart is a guest's, has no coupon and no reward line and holds every key; otherwise nothing changes.
 */
import { cartKey, contract, line } from './fixtures/contract.ts'
import type { CartData } from '../../kernel/domain/types.ts'
import type { RemovedCartLines, Storage } from '../../storage/contract/index.ts'

const KEEP = async (removed: RemovedCartLines) => ({ result: removed })

contract('CartStore removeCartLines', async (t, storage) => {
  const remove = (storage as Storage).removeCartLines?.bind(storage)
  if (remove === undefined) {
    t.fail('the storage removes lines without a read')
    return
  }
  const three: CartData = { lines: [line(1), line(2, 2), line(3)], coupons: [] }
  const stored = async (data: CartData = three) => {
    const key = cartKey()
    await storage.updateCart(key, () => ({ data, result: null }))
    return key
  }

  t.test('removes the lines in one write: the rest in order, one version more, the cart before and after', async (t) => {
    const key = await stored()
    const outcome = await remove(key, [line(1).key, line(3).key], KEEP)
    const removed = outcome?.result
    t.ok(removed !== undefined, 'written')
    t.same(removed!.before.data.lines.map((l) => l.productId), [1, 2, 3], 'the cart as it was')
    t.equal(removed!.before.version, 1)
    t.same(removed!.cart.data.lines.map((l) => [l.productId, l.quantity]), [[2, 2]], 'the cart as written')
    t.equal(removed!.cart.version, 2)
    t.equal(removed!.cart.userId, null)
    t.ok(removed!.versions.catalogVersion >= 0 && removed!.versions.settingsVersion >= 0, 'the versions the write saw')
    const after = await storage.getCart(key)
    t.strictSame(after, removed!.cart, 'as stored')
  })

  t.test('a key given twice is removed once', async (t) => {
    const key = await stored()
    const outcome = await remove(key, [line(2).key, line(2).key], KEEP)
    t.same(outcome?.result.cart.data.lines.map((l) => l.productId), [1, 3])
    t.equal((await storage.getCart(key))?.version, 2)
  })

  t.test('finish runs after the write, and the snapshot it makes is the written version\'s', async (t) => {
    const key = await stored()
    await storage.saveCartSnapshot(key, 1, 'stamp-1', 'the old snapshot')
    let seenVersion = 0
    const outcome = await remove(key, [line(1).key], async (removed) => {
      seenVersion = (await storage.getCart(key))!.version
      return { result: 'finished', snapshot: { stamp: 'stamp-2', snapshot: 'the new snapshot' } }
    })
    t.equal(outcome?.result, 'finished', 'finish\'s result is answered')
    t.equal(seenVersion, 2, 'the write had landed when finish ran (and finish could read the cart)')
    const snapshot = await storage.getCartSnapshot(key)
    t.equal(snapshot?.snapshot, 'the new snapshot')
    t.equal(snapshot?.version, 2)
  })

  t.test('without a snapshot from finish, the old one is dropped', async (t) => {
    const key = await stored()
    await storage.saveCartSnapshot(key, 1, 'stamp-1', 'the old snapshot')
    await remove(key, [line(1).key], async () => ({ result: null }))
    t.equal(await storage.getCartSnapshot(key), null)
  })

  t.test('nothing changes, and finish does not run, for every cart it may not change', async (t) => {
    const cases: Array<[string, () => Promise<string>, string[]]> = [
      ['a cart not stored', async () => cartKey(), [line(1).key]],
      ['a key the cart does not hold (among ones it holds)', () => stored(), [line(1).key, line(9).key]],
      ['no key', () => stored(), []],
      ['a cart with a coupon', () => stored({ ...three, coupons: ['ten'] }), [line(1).key]],
      ['a cart with a reward line', () => stored({ ...three, lines: [...three.lines, { ...line(4), mark: 'reward:tier-1' }] }), [line(1).key]],
      ['a cart bound to a user', async () => {
        const key = await stored()
        await storage.setCartUser(key, 41)
        return key
      }, [line(1).key]]
    ]
    for (const [what, make, keys] of cases) {
      const key = await make()
      const before = await storage.getCart(key)
      let ran = false
      const outcome = await remove(key, keys, async () => {
        ran = true
        return { result: null }
      })
      t.equal(outcome, null, `${what}: null`)
      t.equal(ran, false, `${what}: finish did not run`)
      t.strictSame(await storage.getCart(key), before, `${what}: unchanged`)
    }
  })

  t.test('removals of one cart side by side each land once: none is lost', async (t) => {
    const lines = Array.from({ length: 12 }, (_, index) => line(index + 1))
    const key = await stored({ lines, coupons: [] })
    const outcomes = await Promise.all(lines.map((each) => remove(key, [each.key], KEEP)))
    t.ok(outcomes.every((outcome) => outcome !== null), 'every removal landed')
    const versions = outcomes.map((outcome) => outcome!.result.cart.version).sort((a, b) => a - b)
    t.same(versions, Array.from({ length: 12 }, (_, index) => index + 2), 'one version each, from 2 to 13')
    const after = await storage.getCart(key)
    t.same(after?.data.lines, [], 'every line is gone')
    t.equal(after?.version, 13)
  })
})
