/**
 * The classic add to cart that starts a cart (no cookie names one): it reads nothing when this instance holds the
 * product at the newest catalog version it has seen, and stores the cart with one statement that lands only while the
 * catalog is still at that version. A product changed through another instance since is never added as this instance
 * last read it: the add starts over from fresh reads, and so does a refusal.
 */
import type { FastifyInstance } from 'fastify'
import { test } from 'tap'
import type { Product } from '../../../kernel/domain/types.ts'
import { seedDemoShop } from '../../../seed/seed.ts'
import type { Storage } from '../../../storage/contract/index.ts'
import { build, SITE_URL, STORE_API } from '../../helper.ts'
import { storageBackends } from '../../helpers/storage-backends.ts'

/** Counts the storage calls that reach the database: what a request read or wrote. */
function counted (storage: Storage): { storage: Storage, calls: string[] } {
  const calls: string[] = []
  const proxied = new Proxy(storage, {
    get (target, property) {
      const value: unknown = Reflect.get(target, property, target)
      if (typeof value !== 'function' || property === 'knownProducts') return typeof value === 'function' ? value.bind(target) : value
      return (...args: unknown[]) => {
        calls.push(String(property))
        return (value as (...args: unknown[]) => unknown).apply(target, args)
      }
    }
  })
  return { storage: proxied, calls }
}

/** A classic add without a cookie: a new cart. Answers the response, the storage calls the add made, and its cart. */
async function addToNewCart (app: FastifyInstance, calls: string[], productId: number): Promise<{ body: any, made: string[], cart: any }> {
  calls.length = 0
  const response = await app.inject({
    method: 'POST',
    url: '/?wc-ajax=add_to_cart',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `product_id=${productId}&quantity=1`
  })
  const made = [...calls]
  if (response.statusCode !== 200) throw new Error(`add ${productId}: ${response.statusCode} ${response.body}`)
  const cookie = response.cookies.find((c) => c.name === 'svc_cart')
  const cart = cookie === undefined ? null : (await app.inject({ url: `${STORE_API}/cart`, headers: { cookie: `svc_cart=${cookie.value}` } })).json()
  return { body: response.json(), made, cart }
}

for (const backend of storageBackends()) {
  test(`a classic add that starts a cart (${backend.name})`, { skip: backend.skip }, async (t) => {
    const pair = await backend.createPair()
    t.teardown(() => pair.dispose())
    const [mine, other] = pair.storages
    await seedDemoShop(mine, SITE_URL)
    const { storage, calls } = counted(mine)
    const app = await build(t, { storage, seed: false, sweep: false })
    const product = async (id: number): Promise<Product> => (await other.getProduct(id))!

    // The first add reads its product (and learns the settings' version); the next ones hold it.
    const first = await addToNewCart(app, calls, 101)
    t.equal(first.cart.items_count, 1)
    t.ok(first.made.includes('getProduct'), 'the first add read its product')
    const second = await addToNewCart(app, calls, 101)
    t.same(second.made, ['updateCart'], 'the next add read nothing: its one storage call is the write')
    t.equal(second.cart.items[0].id, 101)
    t.equal(second.cart.totals.total_items, first.cart.totals.total_items)
    t.match(second.body.fragments['div.widget_shopping_cart_content'], 'Beanie')

    // Another instance changes the price: this one still holds the old product, yet the cart gets the new price.
    await other.upsertProducts([{ ...await product(101), regularPrice: 5000, salePrice: null }])
    const repriced = await addToNewCart(app, calls, 101)
    t.equal(repriced.cart.totals.total_items, '5000', 'the price as it is now')
    t.match(repriced.body.fragments['div.widget_shopping_cart_content'], '$50.00', 'the fragment agrees')
    t.ok(repriced.made.includes('getProduct'), 'the product was read again')

    // Out of stock as this instance last read it, back in stock since through the other: the add is not refused.
    const hoodie = await product(103)
    await other.upsertProducts([{ ...hoodie, stockStatus: 'outofstock', manageStock: false }])
    const refused = await addToNewCart(app, calls, 103)
    t.equal(refused.body.error, true, 'refused while out of stock')
    t.equal(refused.cart.items_count, 0, 'nothing is added to the cart of a refused add')
    await other.upsertProducts([{ ...hoodie, stockStatus: 'instock', manageStock: false }])
    const added = await addToNewCart(app, calls, 103)
    t.notOk(added.body.error, 'added once back in stock')
    t.equal(added.cart.items[0].id, 103)

    // Out of stock through the other instance after this one read it in stock: refused.
    const held = await addToNewCart(app, calls, 103)
    t.same(held.made, ['updateCart'], 'held again')
    await other.upsertProducts([{ ...hoodie, stockStatus: 'outofstock', manageStock: false }])
    const late = await addToNewCart(app, calls, 103)
    t.equal(late.body.error, true, 'refused from the fresh product')
  })
}
