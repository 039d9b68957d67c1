/**
 * A port of WooCommerce's plugins/woocommerce/tests/php/src/Blocks/StoreApi/Routes/ProductCategories.php (and the
 * category shape of ProductCategorySchema) as HTTP requests against this platform (our own code and wording).
 *
 * Covered: test_category_list_count_uses_visibility_aware_count, test_single_category_count_uses_visibility_aware_count
 * (the count leaves out products the catalog does not list: hidden, search-only, drafts), plus the unknown-id 404.
 *
 * Deliberately different: there is no "hide out of stock items" setting, so the WooCommerce cases' out-of-stock
 * product is replaced by a hidden one; categories are gathered from published products (no category table), so a
 * category only drafts use does not exist here; `description` is empty, `parent` 0 and `image` null.
 */
import { test } from 'tap'
import { product as seedProduct } from '../../../../../seed/demo-catalog.ts'
import { buildTestApp, SITE_URL, STORE_API } from '../../../../helpers/app.ts'
import { createTestPgliteStorage } from '../../../../helpers/pglite.ts'

const testCategory = { id: 70, name: 'Test Category', slug: 'test-category' }
const draftsOnly = { id: 71, name: 'Drafts Only', slug: 'drafts-only' }
const hiddenOnly = { id: 72, name: 'Hidden Only', slug: 'hidden-only' }

test('WooCommerce ProductCategories.php, ported', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  await storage.upsertProducts([
    seedProduct({ id: 701, name: 'Test Product 1', regularPrice: 1000, categories: [testCategory], catalogVisibility: 'hidden' }, SITE_URL),
    seedProduct({ id: 702, name: 'Test Product 2', regularPrice: 2000, categories: [testCategory] }, SITE_URL),
    seedProduct({ id: 703, name: 'Draft', regularPrice: 2000, categories: [draftsOnly, testCategory], status: 'draft' }, SITE_URL),
    seedProduct({ id: 704, name: 'Hidden', regularPrice: 2000, categories: [hiddenOnly], catalogVisibility: 'hidden' }, SITE_URL)
  ])
  const app = await buildTestApp(t, storage)
  const get = async (path: string) => {
    const response = await app.inject({ url: `${STORE_API}${path}` })
    return { status: response.statusCode, body: response.json(), headers: response.headers }
  }

  t.test('test_category_list_count_uses_visibility_aware_count', async (t) => {
    const { status, body, headers } = await get('/products/categories?hide_empty=false')
    t.equal(status, 200)
    const category = body.find((item: { id: number }) => item.id === testCategory.id)
    t.same(category, {
      id: 70,
      name: 'Test Category',
      slug: 'test-category',
      description: '',
      parent: 0,
      count: 1,
      image: null,
      review_count: 0,
      permalink: `${SITE_URL}/product-category/test-category/`
    }, 'WooCommerce\'s keys, the count of listed products only')
    t.ok(body.some((item: { id: number }) => item.id === hiddenOnly.id), 'hide_empty=false keeps an empty category')
    t.notOk(body.some((item: { id: number }) => item.id === draftsOnly.id), 'a category only a draft uses is not told')
    t.equal(headers['x-wp-total'], String(body.length))
    const names = body.map((item: { name: string }) => item.name)
    t.same(names, [...names].sort((a: string, b: string) => a.toLowerCase() < b.toLowerCase() ? -1 : 1), 'by name')
  })

  t.test('hide_empty is on by default', async (t) => {
    const { body } = await get('/products/categories')
    t.notOk(body.some((item: { id: number }) => item.id === hiddenOnly.id))
    t.ok(body.some((item: { id: number }) => item.id === testCategory.id))
    t.same((await get('/products/categories?orderby=id&order=desc')).body.map((item: { id: number }) => item.id),
      [70, 3, 2, 1], 'orderby and order')
  })

  t.test('test_single_category_count_uses_visibility_aware_count', async (t) => {
    const { status, body } = await get(`/products/categories/${testCategory.id}`)
    t.same([status, body.count], [200, 1])
  })

  t.test('unknown or unused categories: 404 woocommerce_rest_category_invalid_id', async (t) => {
    for (const id of [999, draftsOnly.id, 99999999999]) {
      const { status, body } = await get(`/products/categories/${id}`)
      t.same([status, body.code, body.data.status], [404, 'woocommerce_rest_category_invalid_id', 404], `category ${id}`)
    }
    const bad = await get('/products/categories/abc')
    t.same([bad.status, bad.body.code], [400, 'rest_invalid_param'], 'not an id: 400')
    const route = await get('/products/categories')
    t.equal(route.status, 200, 'products/categories is not read as a product slug')
  })
})
