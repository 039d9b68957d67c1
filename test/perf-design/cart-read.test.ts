/**
 * `Storage.readCart` and cart snapshots on every SQL backend: the cart with its products, coupons and the versions in
 * one read; `getCartSnapshot` brings the versions as they are now with the stamp the snapshot was stored with, so a
 * snapshot is current only until the cart, the catalog or the settings change.
 */
import { randomUUID } from 'node:crypto'
import { test } from 'tap'
import type { CartLine } from '../../kernel/domain/types.ts'
import { makeCoupon, makeProduct } from '../kernel/domain/fixtures.ts'
import type { Storage } from '../../storage/contract/index.ts'
import { storageBackends } from '../helpers/storage-backends.ts'

/** As `CartService.readSnapshot` decides: the snapshot while its stamp names the versions read with it, else null. */
async function currentSnapshot (storage: Storage, key: string, snapshotKey: string): Promise<string | null> {
  const stored = await storage.getCartSnapshot(key)
  return stored !== null && stored.stamp === `${snapshotKey}:${stored.catalogVersion}:${stored.settingsVersion}` ? stored.snapshot : null
}

function line (productId: number, variationId = 0): CartLine {
  return { key: (variationId || productId).toString(16).padStart(32, '0'), productId, variationId, variation: {}, quantity: 1 }
}

for (const backend of storageBackends()) {
  test(`readCart and cart snapshots (${backend.name})`, { skip: backend.skip }, async (t) => {
    const storage = await backend.create()
    t.teardown(() => storage.dispose())
    await storage.upsertProducts([
      makeProduct({ id: 1, name: 'One' }),
      makeProduct({ id: 2, name: 'Two', type: 'variable', variationIds: [21] }),
      makeProduct({ id: 21, name: 'Two, red', type: 'variation', parentId: 2 }),
      makeProduct({ id: 3, name: 'Not in the cart' })
    ])
    await storage.upsertCoupons([makeCoupon({ code: 'ten' }), makeCoupon({ code: 'other' })])

    const missing = await storage.readCart(`t_${randomUUID()}`)
    t.equal(missing.cart, null, 'a cart not stored')
    t.equal(missing.products.size, 0)
    t.equal(missing.settingsVersion, 0, 'no settings stored: version 0')
    t.equal(await currentSnapshot(storage, `t_${randomUUID()}`, 'k1'), null, 'no snapshot of a cart not stored')

    const key = `t_${randomUUID()}`
    const { cart, versions } = await storage.updateCart(key, () => ({ data: { lines: [line(1), line(2, 21)], coupons: ['TEN'] }, result: null }))
    t.ok(versions, 'a write tells the versions it saw')
    const read = await storage.readCart(key)
    t.strictSame(read.cart, cart, 'the cart as written')
    t.strictSame([...read.products.keys()].sort(), [1, 2, 21], 'its products, the variation\'s parent too')
    t.strictSame([...read.coupons.keys()], ['ten'], 'its coupons, by normalised code')
    t.equal(read.catalogVersion, versions!.catalogVersion)
    t.equal(read.settingsVersion, versions!.settingsVersion)

    await storage.saveSettings({ enabled: true })
    t.equal((await storage.readCart(key)).settingsVersion, 1, 'the settings\' version comes along')

    const stamp = (catalog: number, settings: number): string => `k1:${catalog}:${settings}`
    const now = await storage.readCart(key)
    t.notOk(await storage.saveCartSnapshot(key, cart.version - 1, stamp(now.catalogVersion, now.settingsVersion), '{"old":true}'),
      'a snapshot of an older version of the cart is not stored')
    t.ok(await storage.saveCartSnapshot(key, cart.version, stamp(now.catalogVersion, now.settingsVersion), '{"state":1}'))
    t.equal(await currentSnapshot(storage, key, 'k1'), '{"state":1}', 'a current snapshot is answered')
    t.equal(await currentSnapshot(storage, key, 'k2'), null, 'not for another snapshot key')
    t.equal(await currentSnapshot(storage, key, 'k'), null, 'nor for a key that is a prefix of its own')
    t.strictSame((await storage.readCart(key)).cart, cart, 'the full read still reads the cart itself')

    await storage.upsertProducts([makeProduct({ id: 3, name: 'Not in the cart, renamed' })])
    const afterCatalog = await storage.readCart(key)
    t.equal(afterCatalog.catalogVersion, now.catalogVersion + 1, 'a product write moves the catalog version')
    t.equal(await currentSnapshot(storage, key, 'k1'), null, 'so the snapshot is no longer current')

    await storage.saveCartSnapshot(key, cart.version, stamp(afterCatalog.catalogVersion, afterCatalog.settingsVersion), '{"state":2}')
    await storage.upsertCoupons([makeCoupon({ code: 'other', amount: 5 })])
    t.equal(await currentSnapshot(storage, key, 'k1'), null, 'a coupon write too')

    const current = await storage.readCart(key)
    await storage.saveCartSnapshot(key, cart.version, stamp(current.catalogVersion, current.settingsVersion), '{"state":3}')
    await storage.saveSettings({ enabled: false })
    t.equal(await currentSnapshot(storage, key, 'k1'), null, 'a settings write too')

    const latest = await storage.readCart(key)
    await storage.saveCartSnapshot(key, cart.version, stamp(latest.catalogVersion, latest.settingsVersion), '{"state":4}')
    t.equal(await currentSnapshot(storage, key, 'k1'), '{"state":4}')
    await storage.updateCart(key, (currentCart) => ({ data: { ...currentCart.data, lines: [line(1)] }, result: null }))
    t.equal(await currentSnapshot(storage, key, 'k1'), null, 'a write of the cart drops its snapshot')
  })
}
