/** The `CatalogStore` contract: products, coupons and the catalog's version, on every backend. */
import type { Product } from '../../kernel/domain/types.ts'
import type { ProductQuery } from '../../storage/contract/index.ts'
import { cartKey, contract, coupon, line, product } from './fixtures/contract.ts'

contract('CatalogStore', async (t, storage) => {
  t.test('products', async (t) => {
    const catalogue: Product[] = [
      ...Array.from({ length: 120 }, (_, index) => product(1000 + index)),
      product(1, { name: 'Blue Hoodie', sku: 'HOOD-BLUE', categories: [{ id: 5, name: 'Clothing', slug: 'clothing' }] }),
      product(2, { type: 'variable', name: 'T-Shirt', sku: 'TEE', variationIds: [3], attributes: [{ name: 'pa_color', label: 'Color', options: ['red'] }] }),
      product(3, { type: 'variation', parentId: 2, name: 'T-Shirt - Red', sku: 'TEE-RED', variationAttributes: { pa_color: 'red' } }),
      product(4, { status: 'draft', name: 'Secret draft' }),
      product(5, { catalogVisibility: 'hidden', name: '100% wool scarf', categories: [{ id: 5, name: 'Clothing', slug: 'clothing' }] })
    ]
    await storage.upsertProducts(catalogue)

    t.strictSame(await storage.getProduct(1), catalogue[120], 'a product comes back whole')
    t.equal(await storage.getProduct(999), null)

    await storage.upsertProducts([product(1, { name: 'Navy Hoodie', sku: 'HOOD-NAVY', categories: [{ id: 5, name: 'Clothing', slug: 'clothing' }] })])
    t.equal((await storage.getProduct(1))?.name, 'Navy Hoodie', 'upsert replaces')

    const some = await storage.getProducts([1, 3, 999, 1])
    t.same([...some.keys()].sort(), [1, 3])
    t.equal(some.get(3)?.parentId, 2)
    t.equal((await storage.getProducts([])).size, 0)

    const firstPage = await storage.listProducts({})
    t.equal(firstPage.total, 124, 'variations are left out by default')
    t.same(firstPage.products.map((p) => p.id), [1, 2, 4, 5, 1000, 1001, 1002, 1003, 1004, 1005], 'ordered by id, 10 per page')

    const third = await storage.listProducts({ page: 3, perPage: 20 })
    t.same(third.products.map((p) => p.id), Array.from({ length: 20 }, (_, index) => 1036 + index))
    t.equal(third.total, 124)
    t.same(await storage.listProducts({ page: 50 }), { products: [], total: 124 }, 'past the end: no products, total kept')
    t.equal((await storage.listProducts({ perPage: 500 })).products.length, 100, 'perPage is capped at 100')

    t.same((await storage.listProducts({ types: ['variation'] })).products.map((p) => p.id), [3])
    t.same((await storage.listProducts({ statuses: ['draft'] })).products.map((p) => p.id), [4])
    t.same((await storage.listProducts({ visibilities: ['hidden', 'search'] })).products.map((p) => p.id), [5])
    t.same((await storage.listProducts({ categoryId: 5 })).products.map((p) => p.id), [1, 5])
    t.same((await storage.listProducts({ ids: [3, 2, 1004] })).products.map((p) => p.id), [2, 1004])
    t.same((await storage.listProducts({ search: 'hood' })).products.map((p) => p.id), [1], 'search matches the name case-insensitively')
    t.same((await storage.listProducts({ search: ' hood-navy ' })).products.map((p) => p.id), [1], 'search matches the SKU')
    t.same((await storage.listProducts({ search: '100%' })).products.map((p) => p.id), [5], '% is matched literally')
    t.equal((await storage.listProducts({ search: '%' })).products.length, 1)
    t.equal((await storage.listProducts({ search: '_' })).total, 0, '_ is matched literally')
    t.same((await storage.listProducts({ search: 'tee', types: ['simple', 'variable', 'variation'] })).products.map((p) => p.id), [2, 3])
    t.same(await storage.listProducts({ statuses: ['publish'], categoryId: 5, visibilities: ['visible'], search: 'navy' }),
      { products: [await storage.getProduct(1)], total: 1 }, 'filters combine')
  })

  t.test('product filters and orders (the Store API\'s query parameters)', async (t) => {
    const hats = { id: 7, name: 'Hats', slug: 'hats' }
    const bags = { id: 8, name: 'Bags', slug: 'bags' }
    await storage.upsertProducts([
      product(40, { name: 'banana Hat', slug: 'banana-hat', sku: 'B-1', regularPrice: 3000, salePrice: 2500, categories: [hats] }),
      product(41, { name: 'Apple Bag', slug: 'apple-bag', sku: 'A-1', regularPrice: 2000, categories: [bags], stockStatus: 'outofstock' }),
      product(42, { name: 'cherry Hat', slug: 'cherry-hat', sku: 'C-1', regularPrice: null, categories: [hats, bags] }),
      product(43, { type: 'variable', name: 'Dress', slug: 'dress', sku: 'D', regularPrice: null, variationIds: [44, 45, 46], categories: [hats] }),
      product(44, { type: 'variation', parentId: 43, name: 'Dress - S', slug: 'dress-s', sku: 'D-S', regularPrice: 1000 }),
      product(45, { type: 'variation', parentId: 43, name: 'Dress - M', slug: 'dress-m', sku: 'D-M', regularPrice: 5000, salePrice: 4000 }),
      product(46, { type: 'variation', parentId: 43, name: 'Dress - L', slug: 'dress-l', sku: 'D-L', regularPrice: 9000, status: 'draft' }),
      product(47, { status: 'draft', type: 'variable', name: 'Draft dress', slug: 'draft-dress', regularPrice: null, variationIds: [48] }),
      product(48, { type: 'variation', parentId: 47, name: 'Draft dress - S', slug: 'draft-dress-s', regularPrice: 100, stockStatus: 'onbackorder' })
    ])
    const ids = async (query: ProductQuery) => (await storage.listProducts({ ids: [40, 41, 42, 43, 44, 45, 46, 47, 48], types: ['simple', 'variable'], ...query })).products.map((p) => p.id)

    t.same(await ids({ excludeIds: [41, 43] }), [40, 42, 47], 'excludeIds leaves those out')
    t.same(await ids({ slugs: ['cherry-hat', 'apple-bag', 'nope'] }), [41, 42], 'slugs match exactly')
    t.same(await ids({ skus: ['a-1', 'B-1'] }), [40], 'SKUs match exactly (case included)')
    t.same(await ids({ types: ['variation'], parentIds: [43] }), [44, 45, 46], 'parentIds')
    t.same(await ids({ types: ['variation'], parentExcludeIds: [43] }), [48], 'parentExcludeIds')
    t.same(await ids({ types: ['variation'], parentStatuses: ['publish'] }), [44, 45, 46], 'variations of a draft parent are left out')
    t.same(await ids({ parentStatuses: ['publish'] }), [40, 41, 42, 43, 47], 'parentStatuses does not touch other types')
    t.same(await ids({ categories: [{ id: 7 }, { slug: 'bags' }] }), [40, 41, 42, 43], 'categories by id or slug: in any')
    t.same(await ids({ categories: [{ id: 7 }, { slug: 'bags' }], categoryOperator: 'and' }), [42], 'and: in every one')
    t.same(await ids({ categories: [{ slug: 'hats' }], categoryOperator: 'not_in' }), [41, 47], 'not_in: in none')
    t.same(await ids({ categories: [{ slug: 'unknown' }] }), [], 'an unknown category matches nothing')
    t.same(await ids({ stockStatuses: ['outofstock', 'onbackorder'] }), [41], 'stock statuses')
    t.same(await ids({ types: ['variation'], stockStatuses: ['onbackorder'] }), [48])
    t.same(await ids({ onSale: true }), [40, 43], 'on sale: own sale price, or a published variation on sale')
    t.same(await ids({ onSale: false }), [41, 42, 47], 'not on sale')
    t.same(await ids({ minPrice: 2500 }), [40, 43], 'minPrice against the price charged; a variable product by its highest variation')
    t.same(await ids({ maxPrice: 2000 }), [41, 43, 47], 'maxPrice; a variable product by its lowest published variation; no price never matches')
    t.same(await ids({ minPrice: 2000, maxPrice: 2500 }), [40, 41, 43], 'both bounds: the ranges overlap')
    t.same(await ids({ minPrice: 4001 }), [], 'a bound above every price matches nothing')

    t.same(await ids({ orderBy: 'title' }), [41, 40, 42, 47, 43], 'title: ASCII letters folded (Apple, banana, cherry, Draft dress, Dress)')
    t.same(await ids({ orderBy: 'title', order: 'desc' }), [43, 47, 42, 40, 41], 'title descending')
    t.same(await ids({ orderBy: 'slug' }), [41, 40, 42, 47, 43], 'slug')
    t.same(await ids({ orderBy: 'price' }), [47, 43, 41, 40, 42], 'price ascending by the lowest price (100, 1000, 2000, 2500); no price last')
    t.same(await ids({ orderBy: 'price', order: 'desc' }), [43, 40, 41, 47, 42], 'price descending by the highest (4000, 2500, 2000, 100); no price still last')
    t.same(await ids({ orderBy: 'id', order: 'desc' }), [47, 43, 42, 41, 40], 'id descending')
    t.same((await storage.listProducts({ ids: [42, 40, 41, 40], orderBy: 'include' })).products.map((p) => p.id), [42, 40, 41], 'include keeps the order asked for')
    const paged = await storage.listProducts({ ids: [40, 41, 42, 43, 47], orderBy: 'price', perPage: 2, page: 2 })
    t.same([paged.products.map((p) => p.id), paged.total], [[41, 40], 5], 'an order pages like the default one')
  })

  t.test('a product read is the caller\'s to change', async (t) => {
    await storage.upsertProducts([product(20)])
    const read = await storage.getProduct(20)
    read!.name = 'changed by the caller'
    read!.images.pop()
    t.strictSame(await storage.getProduct(20), product(20), 'the stored product is unchanged')
    const given = product(21)
    await storage.upsertProducts([given])
    given.name = 'changed after the write'
    t.equal((await storage.getProduct(21))?.name, 'Product 21', 'nor by changing what was given')
    await storage.upsertProducts([product(22, { name: 'first' }), product(22, { name: 'last' })])
    t.equal((await storage.getProduct(22))?.name, 'last', 'the same id twice in one call: the last one is kept')
  })

  t.test('coupons', async (t) => {
    await storage.upsertCoupons([
      coupon('  SAVE10 ', { usageCount: 3, usageLimit: 10, expiresAt: '2030-01-01T00:00:00.000Z' }),
      coupon('FreeShip', { discountType: 'fixed_cart', amount: 500, freeShipping: true, minimumAmount: 2000, description: 'Free shipping' })
    ])
    t.strictSame(await storage.getCoupon('save10'),
      coupon('save10', { usageCount: 3, usageLimit: 10, expiresAt: '2030-01-01T00:00:00.000Z' }), 'stored with a normalised code')
    t.equal((await storage.getCoupon(' FREESHIP '))?.code, 'freeship', 'looked up by a normalised code')
    t.equal(await storage.getCoupon('missing'), null)

    const found = await storage.getCoupons(['SAVE10', 'freeship', 'missing', 'save10'])
    t.same([...found.keys()].sort(), ['freeship', 'save10'])
    t.equal(found.get('freeship')?.amount, 500)
    t.equal((await storage.getCoupons([])).size, 0)

    await storage.upsertCoupons([coupon('save10', { amount: 15, usageCount: 4 })])
    const updated = await storage.getCoupon('SAVE10')
    t.equal(updated?.amount, 15)
    t.equal(updated?.usageCount, 4)
  })

  t.test('the catalog version grows by one with every product or coupon write', async (t) => {
    const key = cartKey()
    const version = async (): Promise<number> => (await storage.readCart(key)).catalogVersion
    const start = await version()
    t.ok(Number.isInteger(start) && start >= 1, 'a whole number from 1')
    await storage.upsertProducts([product(30), product(31)])
    t.equal(await version(), start + 1, 'one product write of two products: one more')
    await storage.upsertCoupons([coupon('v1'), coupon('v2')])
    t.equal(await version(), start + 2, 'a coupon write: one more')
    await storage.upsertProducts([])
    await storage.upsertCoupons([])
    t.equal(await version(), start + 2, 'writing nothing moves nothing')
    const { versions } = await storage.updateCart(key, () => ({ data: { lines: [line(30)], coupons: [] }, result: null }))
    t.equal(versions?.catalogVersion, start + 2, 'a cart write tells the catalog version it saw')
    t.equal(await version(), start + 2, 'and does not move it')
  })
})
