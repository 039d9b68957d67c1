import { test } from 'tap'
import { buildTestApp, STORE_API } from '../../../helpers/app.ts'
import { createTestPgliteStorage } from '../../../helpers/pglite.ts'

test('Store API products: published and visible only', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const app = await buildTestApp(t, storage)

  const list = await app.inject({ url: `${STORE_API}/products?per_page=100` })
  t.equal(list.statusCode, 200)
  const ids = list.json().map((product: { id: number }) => product.id)
  t.ok(ids.includes(101) && ids.includes(106) && ids.includes(117), 'visible and catalog-only products are listed')
  for (const [id, why] of [[114, 'draft'], [115, 'private'], [116, 'hidden'], [118, 'search-only'], [1061, 'variation']] as const) {
    t.notOk(ids.includes(id), `${why} is not listed`)
  }
  t.equal(list.headers['x-wp-total'], String(ids.length))

  const page = await app.inject({ url: `${STORE_API}/products?per_page=5&page=2` })
  t.equal(page.json().length, 5)
  t.equal(page.headers['x-wp-totalpages'], String(Math.ceil(ids.length / 5)))

  const search = await app.inject({ url: `${STORE_API}/products?search=pick` })
  t.same(search.json().map((product: { id: number }) => product.id), [118], 'search-only products appear in search')

  const one = await app.inject({ url: `${STORE_API}/products/106` })
  t.equal(one.statusCode, 200)
  const hoodie = one.json()
  t.equal(hoodie.type, 'variable')
  t.same(hoodie.variations.map((variation: { id: number }) => variation.id), [1061, 1062, 1063, 1064])
  t.equal(hoodie.is_purchasable, false, 'the parent of variations is bought through a variation')

  const escaped = await app.inject({ url: `${STORE_API}/products/120` })
  t.equal(escaped.json().name, 'Wallet <Limited> & "Special"', 'JSON carries the raw name')

  for (const id of [114, 115, 999999, 99999999999]) {
    const missing = await app.inject({ url: `${STORE_API}/products/${id}` })
    t.equal(missing.statusCode, 404, `product ${id} is not shown`)
    t.equal(missing.json().code, 'woocommerce_rest_product_invalid_id')
  }
  for (const id of [116, 1061]) {
    t.equal((await app.inject({ url: `${STORE_API}/products/${id}` })).json().id, id, `hidden products and variations are read by id (${id})`)
  }

  const bad = await app.inject({ url: `${STORE_API}/products?per_page=1000` })
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().code, 'rest_invalid_param')
  t.ok(bad.json().data.params.per_page, 'names the bad parameter')

  // A page so far out that its offset is no longer a whole number once multiplied (found by the fuzz run).
  const far = await app.inject({ url: `${STORE_API}/products?page=1e%2B308` })
  t.equal(far.statusCode, 400, 'a page past the integer range is refused, not a 500')
  t.ok(far.json().data.params.page, 'names the page')
  const last = await app.inject({ url: `${STORE_API}/products?page=2147483647` })
  t.same([last.statusCode, last.json()], [200, []], 'the last page allowed answers an empty list')
})

test('the storefront lists the catalog with names escaped', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const app = await buildTestApp(t, storage)
  const page = await app.inject({ url: '/' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /text\/html/)
  t.match(page.body, 'Wallet &lt;Limited&gt; &amp; &quot;Special&quot;')
  t.notMatch(page.body, 'Wallet <Limited>')
  t.notMatch(page.body, 'Poster', 'drafts are not on the storefront')
  t.match(page.body, 'data-product-id="101"')
})
