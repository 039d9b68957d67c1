/**
 * The drawer's cart state stored at write time and sent as it is by `GET svc/v1/cart`: it must always be the state
 * a fresh computation gives, whatever changed since (the catalog, the settings, another instance's writes).
 */
import { test } from 'tap'
import { asGuest } from '../../../helpers/security.ts'
import { Shopper, svcRequest, type Json } from '../../../helpers/shopper.ts'
import { storageBackends } from '../../../helpers/storage-backends.ts'
import { buildFreeApp, onEveryBackend } from '../svc-free/helpers.ts'

onEveryBackend('GET svc/v1/cart answers the state its last write answered, byte for byte the same document', async (t, { app }) => {
  const shopper = await Shopper.guest(app)
  await shopper.add(101)
  await shopper.add(105, 2)
  const first = await shopper.drawerCart()
  t.equal(first.cartItems.length, 2)
  t.equal(first.cartCount, 3)
  const again = await shopper.svc('GET', 'cart')
  t.equal(again.statusCode, 200)
  t.match(again.headers['content-type'], /^application\/json; charset=utf-8/)
  t.strictSame(again.json(), first, 'the same state on every read')

  const key = first.cartItems.find((item: Json) => item.sku === 'SKU-105').key
  const written = await shopper.ok('POST', 'cart/remove-items', { keys: [key] })
  t.strictSame(await shopper.drawerCart(), written, 'after a write: what the write answered')
  t.equal(written.cartCount, 1)
})

onEveryBackend('a catalog change shows on the next GET svc/v1/cart, though the cart was not written', async (t, { app, storage }) => {
  const shopper = await Shopper.guest(app)
  await shopper.add(103)
  const before = await shopper.drawerCart()
  const [cap] = [...(await storage.getProducts([103])).values()]
  await storage.upsertProducts([{ ...cap!, regularPrice: cap!.regularPrice! + 1000, name: 'Cap, dearer' }])

  const after = await shopper.drawerCart()
  t.not(after.cartTotal, before.cartTotal, 'the new price')
  t.equal(after.cartItems[0].name, 'Cap, dearer', 'the new name')
  t.strictSame(await shopper.drawerCart(), after, 'and the same on the next read')
})

onEveryBackend('a cart with a coupon and a logged-in shopper\'s cart answer the computed state', async (t, { app }) => {
  const shopper = await Shopper.guest(app)
  await shopper.add(102)
  const plain = await shopper.drawerCart()
  const withCoupon = await shopper.ok('POST', 'coupon', { code: 'save10' })
  t.equal(withCoupon.coupons.length, 1, 'the coupon applied')
  t.strictSame(await shopper.drawerCart(), withCoupon, 'GET answers the cart with its coupon')
  t.not(withCoupon.cartTotal, plain.cartTotal)
})

const postgres = storageBackends().find((backend) => backend.name === 'postgres')!
test('two instances on one database: a write or a catalog change on one shows at once on the other (postgres)', { skip: postgres.skip }, async (t) => {
  const pair = await postgres.createPair()
  t.teardown(() => pair.dispose())
  const [storageA, storageB] = pair.storages
  const a = await buildFreeApp(t, storageA)
  const b = await buildFreeApp(t, storageB)
  const onA = await Shopper.guest(a.app)
  await onA.add(101)
  // The same cart through B: A's Cart-Token (both instances share the secret).
  const onB = async (): Promise<Json> => {
    const response = await svcRequest(b.app, 'GET', 'cart', asGuest(onA.token))
    t.equal(response.statusCode, 200)
    return response.json()
  }
  t.strictSame(await onB(), await onA.drawerCart(), 'B reads what A wrote')

  await onA.add(101)
  t.equal((await onB()).cartCount, 2, 'A\'s next write shows on B')

  const [beanie] = [...(await storageA.getProducts([101])).values()]
  await storageA.upsertProducts([{ ...beanie!, name: 'Beanie, renamed' }])
  t.equal((await onB()).cartItems[0].name, 'Beanie, renamed', 'A\'s catalog change shows on B')
})
