/**
 * A port of WooCommerce's plugins/woocommerce/tests/php/src/Blocks/StoreApi/Routes/ProductVisibilityTest.php as HTTP
 * requests against this platform (our own code and wording).
 *
 * Covered: test_single_product_returns_hidden_product, ..._search_only_product, ..._out_of_stock_product,
 * ..._returns_404_for_draft, ..._returns_visible_product, ..._returns_catalog_only_product,
 * test_collection_with_include_returns_hidden_product, test_collection_with_slug_returns_hidden_product,
 * test_products_by_slug_endpoint_returns_hidden_product, test_search_returns_search_only_product,
 * test_search_excludes_catalog_only_product, test_search_excludes_hidden_product,
 * test_collection_excludes_hidden_products, test_collection_can_request_hidden_visibility,
 * test_collection_includes_out_of_stock_when_option_disabled, test_collection_excludes_draft_products.
 *
 * Deliberately different:
 * - the password-protected cases (five) do not apply: products have no passwords here.
 * - test_collection_with_include_respects_stock_status and test_collection_excludes_out_of_stock_when_option_enabled:
 *   there is no "hide out of stock items" setting; out-of-stock products are always listed (as with the option off).
 */
import { test } from 'tap'
import { product as seedProduct } from '../../../../../seed/demo-catalog.ts'
import { buildTestApp, SITE_URL, STORE_API } from '../../../../helpers/app.ts'
import { createTestPgliteStorage } from '../../../../helpers/pglite.ts'

const VISIBLE = 601
const HIDDEN = 602
const CATALOG_ONLY = 603
const SEARCH_ONLY = 604
const OUT_OF_STOCK = 605
const DRAFT = 606

test('WooCommerce ProductVisibilityTest.php, ported', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  await storage.upsertProducts([
    seedProduct({ id: VISIBLE, name: 'Visible Product', regularPrice: 1000 }, SITE_URL),
    seedProduct({ id: HIDDEN, name: 'Hidden Product', regularPrice: 1000, catalogVisibility: 'hidden' }, SITE_URL),
    seedProduct({ id: CATALOG_ONLY, name: 'Catalog Only Product', regularPrice: 1000, catalogVisibility: 'catalog' }, SITE_URL),
    seedProduct({ id: SEARCH_ONLY, name: 'Search Only Product', regularPrice: 1000, catalogVisibility: 'search' }, SITE_URL),
    seedProduct({ id: OUT_OF_STOCK, name: 'Out of Stock Product', regularPrice: 1000, stockStatus: 'outofstock' }, SITE_URL),
    seedProduct({ id: DRAFT, name: 'Draft Product', regularPrice: 1000, status: 'draft' }, SITE_URL)
  ])
  const app = await buildTestApp(t, storage)
  const get = async (path: string) => {
    const response = await app.inject({ url: `${STORE_API}${path}` })
    return { status: response.statusCode, body: response.json() }
  }
  const listed = async (path: string): Promise<number[]> => {
    const { status, body } = await get(path)
    t.equal(status, 200, `${path} answers`)
    return body.map((item: { id: number }) => item.id)
  }

  t.test('the single product endpoint bypasses catalog visibility and stock, not status', async (t) => {
    for (const [id, what] of [[VISIBLE, 'visible'], [HIDDEN, 'hidden'], [CATALOG_ONLY, 'catalog-only'], [SEARCH_ONLY, 'search-only'], [OUT_OF_STOCK, 'out of stock']] as const) {
      const { status, body } = await get(`/products/${id}`)
      t.same([status, body.id], [200, id], `a ${what} product is read by id`)
    }
    const draft = await get(`/products/${DRAFT}`)
    t.same([draft.status, draft.body.code], [404, 'woocommerce_rest_product_invalid_id'], 'a draft is not')
  })

  t.test('include, slug and the slug endpoint bypass catalog visibility', async (t) => {
    t.ok((await listed(`/products?include=${HIDDEN}`)).includes(HIDDEN), 'include')
    t.ok((await listed('/products?include[]=602&include[]=601')).includes(HIDDEN), 'include written as include[]')
    t.ok((await listed('/products?slug=hidden-product')).includes(HIDDEN), 'slug')
    const bySlug = await get('/products/hidden-product')
    t.same([bySlug.status, bySlug.body.id], [200, HIDDEN], 'products/{slug}')
    t.same(await listed(`/products?include=${DRAFT}`), [], 'but never a draft')
    t.same(await listed('/products?slug=draft-product'), [], 'nor by slug')
  })

  t.test('search lists search-visible products only', async (t) => {
    t.ok((await listed('/products?search=Search%20Only')).includes(SEARCH_ONLY), 'search-only is found')
    t.notOk((await listed('/products?search=Catalog%20Only')).includes(CATALOG_ONLY), 'catalog-only is not')
    t.notOk((await listed('/products?search=Hidden')).includes(HIDDEN), 'hidden is not')
  })

  t.test('the collection lists catalog-visible products by default', async (t) => {
    const ids = await listed('/products?per_page=100')
    t.ok(ids.includes(VISIBLE), 'visible')
    t.ok(ids.includes(CATALOG_ONLY), 'catalog-only')
    t.notOk(ids.includes(HIDDEN), 'not hidden')
    t.notOk(ids.includes(SEARCH_ONLY), 'not search-only')
    t.ok(ids.includes(OUT_OF_STOCK), 'out of stock is listed (there is no setting to hide it)')
    t.notOk(ids.includes(DRAFT), 'not a draft')
  })

  t.test('catalog_visibility asks for a visibility explicitly', async (t) => {
    const hidden = await listed('/products?catalog_visibility=hidden&per_page=100')
    t.ok(hidden.includes(HIDDEN), 'hidden products when asked for')
    t.notOk(hidden.includes(VISIBLE), 'and only them')
    const search = await listed('/products?catalog_visibility=search&per_page=100')
    t.ok(search.includes(SEARCH_ONLY) && search.includes(VISIBLE) && !search.includes(CATALOG_ONLY), 'search: visible and search-only')
    const any = await listed('/products?catalog_visibility=any&per_page=100')
    t.ok([VISIBLE, HIDDEN, CATALOG_ONLY, SEARCH_ONLY].every((id) => any.includes(id)), 'any: all of them')
    t.notOk(any.includes(DRAFT), 'any: still no draft')
    const wrong = await get('/products?catalog_visibility=secret')
    t.same([wrong.status, wrong.body.code, Object.keys(wrong.body.data.params)], [400, 'rest_invalid_param', ['catalog_visibility']], 'an unknown value is refused')
  })
})
