/**
 * A port of WooCommerce's Store API route tests, plugins/woocommerce/tests/php/src/Blocks/StoreApi/Routes/Products.php,
 * as HTTP requests against this platform (our own code and wording).
 *
 * Covered: test_get_item, test_get_items, test_search_by_sku, test_prepare_item (as the exact key order),
 * test_get_collection_params (through OPTIONS), test_get_item_schema (OPTIONS schema against an answer),
 * test_without_image, test_product_category_image_return_types, test_single_product_has_self_and_collection_links,
 * test_product_with_upsells_has_embeddable_upsells_link, test_product_with_cross_sells_has_embeddable_cross_sells_link,
 * test_product_without_upsells_has_no_upsells_link, test_product_without_cross_sells_has_no_cross_sells_link,
 * test_collection_endpoint_returns_links, test_context_accepts_embed_value, test_product_variation_has_up_link,
 * test_product_has_related_link_with_related_parameter_format, test_related_query_parameter_filters_products,
 * test_non_published_product_by_id_returns_404, test_non_published_products_excluded_from_collection,
 * test_non_published_product_by_slug_returns_404, test_related_query_parameter_returns_empty_when_no_related.
 *
 * Deliberately different:
 * - test_grouped_product: there are no grouped products here; `grouped_products` is always [] and `type=grouped`
 *   lists nothing (asserted).
 * - test_get_collection_params: after, before, date_column, offset, tag, tag_operator, brand, attributes,
 *   attribute_relation and rating are not offered (no dates, tags, brands, global attributes or reviews here).
 * - test_product_category_image_return_types: categories have no images, so `image` is always null (asserted).
 * - the four password-protected tests: products have no passwords here; `is_password_protected` is not emitted.
 * - `_links` is part of the body (WordPress adds it when it serialises); links carry the ids, not per-link filtering.
 */
import { test } from 'tap'
import type { Product } from '../../../../../kernel/domain/types.ts'
import { product as seedProduct } from '../../../../../seed/demo-catalog.ts'
import { buildTestApp, SITE_URL, STORE_API } from '../../../../helpers/app.ts'
import { createTestPgliteStorage } from '../../../../helpers/pglite.ts'

type Json = Record<string, any>

const WOO_PRODUCT_KEYS = [
  'id', 'name', 'slug', 'parent', 'type', 'variation', 'permalink', 'sku', 'short_description', 'description', 'on_sale',
  'prices', 'price_html', 'average_rating', 'review_count', 'images', 'categories', 'tags', 'brands', 'attributes',
  'variations', 'grouped_products', 'has_options', 'is_purchasable', 'is_in_stock', 'is_on_backorder',
  'low_stock_remaining', 'stock_availability', 'sold_individually', 'weight', 'formatted_weight', 'dimensions',
  'formatted_dimensions', 'add_to_cart', 'extensions', '_links'
]

const related = { id: 40, name: 'Related Category', slug: 'related-category' }
const lonely = { id: 41, name: 'Unique Category', slug: 'unique-category' }
const fixtures = (): Product[] => [
  seedProduct({ id: 501, name: 'Test Product 1', regularPrice: 1000, weight: '2.5', dimensions: { length: '10', width: '5', height: '3' } }, SITE_URL),
  seedProduct({ id: 502, name: 'Upsell Product', regularPrice: 2000 }, SITE_URL),
  seedProduct({ id: 503, name: 'Main Product', regularPrice: 1000, upsellIds: [502], crossSellIds: [504] }, SITE_URL),
  seedProduct({ id: 504, name: 'Cross-sell Product', regularPrice: 1500 }, SITE_URL),
  seedProduct({ id: 505, name: 'No image', regularPrice: 1000, images: [] }, SITE_URL),
  seedProduct({ id: 506, name: 'Search SKU', sku: 'search-for-this-value', regularPrice: 1000 }, SITE_URL),
  seedProduct({ id: 507, name: 'Main Related Product', regularPrice: 1000, categories: [related] }, SITE_URL),
  seedProduct({ id: 508, name: 'Related Product In Same Category', regularPrice: 1500, categories: [related] }, SITE_URL),
  seedProduct({ id: 509, name: 'Lonely Product', regularPrice: 1000, categories: [lonely] }, SITE_URL),
  seedProduct({ id: 510, name: 'Non Published Draft', slug: 'non-published-draft', regularPrice: 1000, status: 'draft' }, SITE_URL),
  seedProduct({ id: 511, name: 'Non Published Private', slug: 'non-published-private', regularPrice: 1000, status: 'private' }, SITE_URL)
]

test('WooCommerce Products.php, ported', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  await storage.upsertProducts(fixtures())
  const app = await buildTestApp(t, storage)
  const get = async (path: string) => {
    const response = await app.inject({ url: `${STORE_API}${path}` })
    return { status: response.statusCode, body: response.json(), headers: response.headers }
  }

  t.test('test_get_item', async (t) => {
    const { status, body } = await get('/products/501')
    t.equal(status, 200)
    t.match(body, { id: 501, name: 'Test Product 1', slug: 'test-product-1', permalink: `${SITE_URL}/product/test-product-1/`, sku: 'SKU-501' })
    t.equal(Number(body.prices.price) / 10 ** body.prices.currency_minor_unit, 10, 'the price in minor units')
    t.same([body.average_rating, body.review_count, body.has_options, body.is_purchasable, body.is_in_stock, body.on_sale], ['0', 0, false, true, true, false])
    t.same(body.add_to_cart, { text: 'Add to cart', description: 'Add to cart: “Test Product 1”', url: '?add-to-cart=501', single_text: 'Add to cart', minimum: 1, maximum: 9999, multiple_of: 1 })
    t.equal(body.weight, '2.5')
    t.same(body.dimensions, { length: '10', width: '5', height: '3' })
    t.equal(body.formatted_weight, '2.5 kg')
    t.equal(body.formatted_dimensions, '10 × 5 × 3 cm')
    t.same(body.grouped_products, [])
    t.equal(body.images.length, 1)
    t.equal(body.images[0].id, 501)
    const plain = await get('/products/502')
    t.same([plain.body.weight, plain.body.formatted_weight, plain.body.dimensions, plain.body.formatted_dimensions],
      ['', 'N/A', { length: '', width: '', height: '' }, 'N/A'], 'a product stored without weight or dimensions')
  })

  t.test('test_grouped_product (deliberately different: no grouped products)', async (t) => {
    t.same((await get('/products/501')).body.grouped_products, [])
    const grouped = await get('/products?type=grouped')
    t.same([grouped.status, grouped.body, grouped.headers['x-wp-total']], [200, [], '0'])
  })

  t.test('test_get_items and test_prepare_item: every key, in WooCommerce order', async (t) => {
    const { status, body } = await get('/products?per_page=100')
    t.equal(status, 200)
    t.ok(body.length > 20)
    for (const item of body) t.same(Object.keys(item), WOO_PRODUCT_KEYS, `product ${item.id}`)
  })

  t.test('test_search_by_sku', async (t) => {
    const { status, body } = await get('/products?search=search-for-this')
    t.equal(status, 200)
    t.same(body.map((item: Json) => item.sku), ['search-for-this-value'])
  })

  t.test('test_get_collection_params (OPTIONS) and test_get_item_schema', async (t) => {
    const response = await app.inject({ method: 'OPTIONS', url: `${STORE_API}/products` })
    t.equal(response.statusCode, 200)
    const options = response.json()
    t.equal(options.namespace, 'wc/store/v1')
    t.same(options.methods, ['GET'])
    for (const name of ['page', 'per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'parent', 'parent_exclude', 'type',
      'sku', 'featured', 'category', 'category_operator', 'on_sale', 'min_price', 'max_price', 'stock_status', 'catalog_visibility', 'related', 'slug']) {
      t.ok(options.endpoints[0].args[name], `argument ${name}`)
    }
    t.equal(options.schema.title, 'product')
    const answer = (await get('/products/501')).body
    t.same(Object.keys(options.schema.properties), WOO_PRODUCT_KEYS, 'the schema describes every key of an answer')
    t.same(Object.keys(answer), WOO_PRODUCT_KEYS)
    const one = await app.inject({ method: 'OPTIONS', url: `${STORE_API}/products/501` })
    t.same([one.statusCode, one.json().schema.title], [200, 'product'], 'OPTIONS on one product')
  })

  t.test('test_without_image', async (t) => {
    const { body } = await get('/products/505')
    t.same(body.images, [])
  })

  t.test('test_product_category_image_return_types (deliberately different: no category images)', async (t) => {
    const { status, body } = await get('/products/categories/40')
    t.equal(status, 200)
    t.equal(body.image, null)
  })

  t.test('_links: self, collection, upsells, cross_sells, up, related', async (t) => {
    const first = (await get('/products/501')).body._links
    t.match(first.self[0].href, `${STORE_API}/products/501`, 'self')
    t.match(first.collection[0].href, `${STORE_API}/products`, 'collection')
    t.notOk(first.upsells, 'no upsells link without upsells')
    t.notOk(first.cross_sells, 'no cross_sells link without cross-sells')
    t.match(first.related[0].href, 'related=501')
    t.match(first.related[0].href, 'per_page=10')
    t.notMatch(first.related[0].href, 'include=')
    t.equal(first.related[0].embeddable, true)

    const main = (await get('/products/503')).body._links
    t.match(main.upsells[0].href, 'include=502')
    t.equal(main.upsells[0].embeddable, true)
    t.match(main.cross_sells[0].href, 'include=504')
    t.equal(main.cross_sells[0].embeddable, true)

    const variation = await get('/products/1061')
    t.equal(variation.status, 200)
    t.match(variation.body._links.up[0].href, `${STORE_API}/products/106`, 'a variation links up to its parent')

    const list = await get('/products')
    t.ok(list.body.length > 0)
    for (const item of list.body) t.ok(item._links.self && item._links.collection, `product ${item.id} has its links in a list`)
  })

  t.test('test_context_accepts_embed_value', async (t) => {
    t.equal((await get('/products/501?context=embed')).status, 200)
  })

  t.test('test_related_query_parameter_filters_products and ..._returns_empty_when_no_related', async (t) => {
    const { status, body } = await get('/products?related=507')
    t.equal(status, 200)
    const ids = body.map((item: Json) => item.id)
    t.notOk(ids.includes(507), 'not related to itself')
    t.ok(ids.includes(508), 'a product of the same category is related')
    const none = await get('/products?related=509')
    t.same([none.status, none.body], [200, []])
    const hidden = await get('/products?related=510')
    t.same([hidden.status, hidden.body.code], [404, 'woocommerce_rest_product_not_found'], 'an unpublished product has no related products')
  })

  t.test('non-published products: 404 by id and by slug, left out of the collection', async (t) => {
    const ids = (await get('/products?per_page=100')).body.map((item: Json) => item.id)
    for (const [id, slug] of [[510, 'non-published-draft'], [511, 'non-published-private']] as const) {
      const byId = await get(`/products/${id}`)
      t.same([byId.status, byId.body.code], [404, 'woocommerce_rest_product_invalid_id'], `${slug} by id`)
      t.notMatch(JSON.stringify(byId.body), slug, 'nothing of the product is told')
      t.equal((await get(`/products/${slug}`)).status, 404, `${slug} by slug`)
      t.notOk(ids.includes(id), `${slug} is not listed`)
      t.same((await get(`/products?include=${id}`)).body, [], `${slug} is not listed by include either`)
    }
  })
})
