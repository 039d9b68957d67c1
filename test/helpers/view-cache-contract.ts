import { randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import type { CartViewCache } from '../../storage/contract/index.ts'

export const view = (version: number, body = `body of ${version}`) => ({ body, stamp: `stamp-${version}`, version })
const V1 = { catalogVersion: 3, settingsVersion: 2 }

/**
 * What every `CartViewCache` keeps (storage/contract/types.ts): views by cart and name, refused once a write has begun beyond
 * their version, versions unknown during a catalog or settings write and never lowered.
 */
export async function viewCacheContract (t: Test, create: () => CartViewCache): Promise<void> {
  const cache = create()
  t.teardown(() => cache.close())
  const key = () => `cart-${randomUUID()}`

  t.test('answers a filled view, and the versions once seeded', async (t) => {
    const cart = key()
    t.same(await cache.read(cart, 'a'), { view: null, versions: null }, 'nothing before a fill')
    await cache.fill(cart, 'a', view(1))
    await cache.seedVersions(V1)
    t.same(await cache.read(cart, 'a'), { view: view(1), versions: V1 })
    t.same((await cache.read(cart, 'b')).view, null, 'views are kept by name')
  })

  t.test('a write that has begun refuses views of older versions, read or filled later', async (t) => {
    const cart = key()
    await cache.fill(cart, 'a', view(1))
    await cache.beginCartWrite(cart, 2)
    t.same((await cache.read(cart, 'a')).view, null, 'the old view is gone')
    // A read that fetched version 1 before the write committed stores its view after it: refused.
    await cache.fill(cart, 'a', view(1))
    t.same((await cache.read(cart, 'a')).view, null, 'a late fill of the old version is refused')
    await cache.fill(cart, 'a', view(2))
    t.same((await cache.read(cart, 'a')).view, view(2), 'the written version is kept')
    await cache.fill(cart, 'a', view(1, 'older'))
    t.same((await cache.read(cart, 'a')).view, view(2), 'never replaced by an older version')
  })

  t.test('a pending write (its version known only after it commits) refuses every view until it ends', async (t) => {
    const cart = key()
    await cache.fill(cart, 'a', view(3))
    await cache.beginPendingCartWrite(cart)
    t.same((await cache.read(cart, 'a')).view, null, 'the old view is gone')
    // A read that fetched version 3 before the write committed, and one that fetched the written version 4 after it.
    await cache.fill(cart, 'a', view(3))
    await cache.fill(cart, 'b', view(4))
    t.same((await cache.read(cart, 'a')).view, null, 'no fill is stored while the write is pending')
    t.same((await cache.read(cart, 'b')).view, null)
    await cache.endPendingCartWrite(cart, 4)
    await cache.fill(cart, 'a', view(3))
    t.same((await cache.read(cart, 'a')).view, null, 'after its end, views below the written version are refused')
    await cache.fill(cart, 'a', view(4))
    t.same((await cache.read(cart, 'a')).view, view(4), 'and the written version is kept')
  })

  t.test('pending writes are counted, and a write with a known version keeps them', async (t) => {
    const cart = key()
    await cache.beginPendingCartWrite(cart)
    await cache.beginPendingCartWrite(cart)
    await cache.beginCartWrite(cart, 2)
    await cache.endPendingCartWrite(cart, 3)
    await cache.fill(cart, 'a', view(5))
    t.same((await cache.read(cart, 'a')).view, null, 'one of two pending writes still under way')
    await cache.endPendingCartWrite(cart, 0)
    await cache.fill(cart, 'a', view(2))
    t.same((await cache.read(cart, 'a')).view, null, 'an end with nothing written does not lower the least version (3)')
    await cache.fill(cart, 'a', view(5))
    t.same((await cache.read(cart, 'a')).view, view(5))
    await cache.endPendingCartWrite(cart, 0)
    t.same((await cache.read(cart, 'a')).view, view(5), 'an end without a begin changes nothing')
  })

  t.test('a cart closed to views (deleted, bound to a user) takes none', async (t) => {
    const cart = key()
    await cache.fill(cart, 'a', view(4))
    await cache.beginCartWrite(cart, Number.MAX_SAFE_INTEGER)
    await cache.fill(cart, 'a', view(5))
    t.same((await cache.read(cart, 'a')).view, null)
  })

  t.test('versions are unknown while a catalog or settings write is under way, and never go back', async (t) => {
    await cache.seedVersions(V1)
    await cache.beginVersionsWrite()
    t.same((await cache.read(key(), 'a')).versions, null, 'unknown during the write')
    await cache.seedVersions(V1)
    t.same((await cache.read(key(), 'a')).versions, null, 'a reader cannot make them known again meanwhile')
    await cache.endVersionsWrite({ catalogVersion: 4, settingsVersion: 2 })
    t.same((await cache.read(key(), 'a')).versions, { catalogVersion: 4, settingsVersion: 2 }, 'the written versions after it')
    await cache.seedVersions(V1)
    t.same((await cache.read(key(), 'a')).versions, { catalogVersion: 4, settingsVersion: 2 }, 'an older reading does not lower them')
    await cache.beginVersionsWrite()
    await cache.beginVersionsWrite()
    await cache.endVersionsWrite({ catalogVersion: 5, settingsVersion: 2 })
    t.same((await cache.read(key(), 'a')).versions, null, 'one of two writes still under way')
    await cache.endVersionsWrite({ catalogVersion: 6, settingsVersion: 3 })
    t.same((await cache.read(key(), 'a')).versions, { catalogVersion: 6, settingsVersion: 3 })
  })

  t.test('a fill given versions seeds them as seedVersions does, and keeps its view as a fill does', async (t) => {
    const cart = key()
    await cache.fill(cart, 'a', view(1), { catalogVersion: 7, settingsVersion: 3 })
    t.same(await cache.read(cart, 'a'), { view: view(1), versions: { catalogVersion: 7, settingsVersion: 3 } })
    await cache.fill(cart, 'a', view(2), { catalogVersion: 6, settingsVersion: 1 })
    t.same(await cache.read(cart, 'a'), { view: view(2), versions: { catalogVersion: 7, settingsVersion: 3 } }, 'versions never go back')
    await cache.beginCartWrite(cart, 4)
    await cache.fill(cart, 'a', view(3), { catalogVersion: 8, settingsVersion: 3 })
    t.same(await cache.read(cart, 'a'), { view: null, versions: { catalogVersion: 8, settingsVersion: 3 } },
      'a view older than a begun write is refused; its versions are still made known')
    await cache.beginVersionsWrite()
    await cache.fill(cart, 'a', view(4), { catalogVersion: 9, settingsVersion: 3 })
    t.same(await cache.read(cart, 'a'), { view: view(4), versions: null }, 'versions stay unknown while a write is under way')
    await cache.endVersionsWrite({ catalogVersion: 9, settingsVersion: 3 })
  })

  t.test('a view read again (an instance may answer from its copy) answers each change as a first read would', async (t) => {
    const cart = key()
    const twice = async (expected: unknown, message: string) => {
      t.same(await cache.read(cart, 'a'), expected, message)
      t.same(await cache.read(cart, 'a'), expected, `${message}, read again`)
    }
    const V = { catalogVersion: 20, settingsVersion: 5 }
    await cache.fill(cart, 'a', view(1), V)
    await twice({ view: view(1), versions: V }, 'the filled view and its versions')
    await cache.beginVersionsWrite()
    await twice({ view: view(1), versions: null }, 'versions unknown during a catalog or settings write')
    await cache.endVersionsWrite({ catalogVersion: 21, settingsVersion: 5 })
    await twice({ view: view(1), versions: { catalogVersion: 21, settingsVersion: 5 } }, 'the new catalog version')
    await cache.endVersionsWrite({ catalogVersion: 21, settingsVersion: 6 })
    await twice({ view: view(1), versions: { catalogVersion: 21, settingsVersion: 6 } }, 'the new settings version')
    await cache.beginPendingCartWrite(cart)
    await twice({ view: null, versions: { catalogVersion: 21, settingsVersion: 6 } }, 'no view while a write is pending')
    await cache.endPendingCartWrite(cart, 2)
    await twice({ view: null, versions: { catalogVersion: 21, settingsVersion: 6 } }, 'none older than the written version')
    await cache.fill(cart, 'a', view(2, 'the second body'))
    await twice({ view: view(2, 'the second body'), versions: { catalogVersion: 21, settingsVersion: 6 } }, 'the next fill')
    await cache.beginCartWrite(cart, 3)
    await twice({ view: null, versions: { catalogVersion: 21, settingsVersion: 6 } }, 'none once a write has begun')
  })
}
