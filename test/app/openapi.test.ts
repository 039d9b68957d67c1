import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { test } from 'tap'
import Schema from 'typebox/schema'
import { serializeCart } from '../../plugins/shop/store-api/serialize-cart.ts'
import { serializeProduct } from '../../plugins/shop/store-api/serialize-product.ts'
import { CART_KEYS } from '../../schemas/store-api-cart.ts'
import { demoShopConfig } from '../../seed/demo-config.ts'
import { buildTestApp, SITE_URL, STORE_API, StoreApiClient } from '../helpers/app.ts'
import { createTestPgliteStorage } from '../helpers/pglite.ts'

/** WooCommerce's cart keys, in its order (shared/reference/store-api.md). */
const WOO_CART_KEYS = ['items', 'coupons', 'fees', 'totals', 'shipping_address', 'billing_address', 'needs_payment',
  'needs_shipping', 'payment_requirements', 'has_calculated_shipping', 'shipping_rates', 'items_count', 'items_weight',
  'cross_sells', 'errors', 'payment_methods', 'extensions']

/** Routes declared with `schema: { hide: true }`: the document leaves them out. */
const HIDDEN_ROUTES = ['GET /openapi.json', 'GET /images/{slug}']

type Json = Record<string, any>

/** Every `METHOD /path` Fastify routes (HEAD routes aside), read from `printRoutes`, with `{param}` placeholders. */
function fastifyRoutes (app: FastifyInstance): Set<string> {
  const routes = new Set<string>()
  const stack: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)([├└]── )?(.+?) \(([A-Z, ]+)\)/.exec(line)
    if (!match) continue
    const [, indent = '', branch, segment = '', methods = ''] = match
    // A line without a branch is one more route (other constraints) on the node above it.
    const depth = indent.length / 4 - (branch ? 0 : 1)
    stack.length = depth
    stack.push(segment)
    const path = stack.join('').replace(/:(\w+)/g, '{$1}')
    for (const method of methods.split(', ')) if (method !== 'HEAD') routes.add(`${method} ${path}`)
  }
  return routes
}

function documentRoutes (document: Json): Set<string> {
  const routes = new Set<string>()
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of Object.keys(item)) routes.add(`${method.toUpperCase()} ${path}`)
  }
  return routes
}

/** The schema with every `#/components/schemas/…` reference replaced by the component. */
function dereference (document: Json, node: unknown): any {
  if (Array.isArray(node)) return node.map((child) => dereference(document, child))
  if (node === null || typeof node !== 'object') return node
  const ref = (node as Json).$ref
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '')
    const target = document.components.schemas[name]
    if (target === undefined) throw new Error(`unresolved ${ref}`)
    return dereference(document, target)
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, dereference(document, value)]))
}

function responseSchema (document: Json, path: string, method: string, status: number | string): Json {
  const schema = document.paths[path]?.[method]?.responses?.[String(status)]?.content?.['application/json']?.schema
  if (schema === undefined) throw new Error(`no ${status} schema for ${method} ${path}`)
  return dereference(document, schema)
}

/** The validation errors of a body against a published schema, as readable lines (none when it is valid). */
function problems (schema: Json, body: unknown): string[] {
  const [, errors] = Schema.Errors(schema, body)
  return errors.map((error) => `${error.instancePath || '/'} ${error.message}`)
}

async function setup (t: { teardown (fn: () => unknown): void }) {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const app = await buildTestApp(t, storage, {
    shop: { ...demoShopConfig, fees: [{ id: 'handling', name: 'Handling', amount: 150, taxable: true }] }
  })
  const response = await app.inject({ url: '/openapi.json' })
  return { app, storage, response, document: response.json() as Json }
}

test('the OpenAPI document: GET /openapi.json, every route, request and response schemas', async (t) => {
  const { app, response, document } = await setup(t)

  t.test('served as JSON, OpenAPI 3.1, named, versioned, with the Cart-Token scheme', async (t) => {
    t.equal(response.statusCode, 200)
    t.match(response.headers['content-type'], /^application\/json/)
    t.doesNotThrow(() => JSON.parse(response.body))
    t.equal(document.openapi, '3.1.0')
    t.equal(document.info.title, 'Cart Drawer Service')
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    t.equal(document.info.version, pkg.version, 'the version comes from package.json')
    t.same(document.servers, [{ url: SITE_URL }])
    const tags = document.tags.map((tag: Json) => tag.name)
    for (const name of ['store-api', 'health', 'svc']) t.ok(tags.includes(name), `tag ${name}`)
    t.match(document.components.securitySchemes.cartToken, { type: 'apiKey', in: 'header', name: 'Cart-Token' })
    t.notOk(document.paths['/openapi.json'], 'the document route is not in the document')
  })

  t.test('every route of the app is in the document, and nothing else', async (t) => {
    const declared = fastifyRoutes(app)
    t.ok(declared.has(`GET ${STORE_API}/cart`), 'the route listing is read')
    t.ok(declared.has('GET /healthz'))
    const documented = documentRoutes(document)
    // Constrained routes (the classic `?wc-ajax=` actions) are one node of the route tree but a path each in the
    // document: each must exist as a route with that constraint.
    const classic = [...documented].filter((route) => route.includes('?wc-ajax='))
    t.ok(classic.length >= 3, 'the classic actions are documented one by one')
    for (const route of classic) {
      const [, method, url, action] = /^(\w+) (.*)\?wc-ajax=(.*)$/.exec(route)!
      t.ok(app.hasRoute({ method: method as 'GET', url: url!, constraints: { wcAjax: action } }), `${route} is a route`)
    }
    const plain = new Set([...documented].map((route) => route.replace(/\?wc-ajax=.*$/, '')))
    const expected = [...declared].filter((route) => !HIDDEN_ROUTES.includes(route) && !app.svcPlaceholders.includes(route)).sort()
    t.same([...plain].sort(), expected)
  })

  t.test('each Store API route has its request and response schemas', async (t) => {
    const storeApi = Object.entries(document.paths as Json).filter(([path]) => path.startsWith(STORE_API))
    t.equal(storeApi.length, 8, 'cart, five cart changes, products, one product')
    for (const [path, item] of storeApi) {
      for (const [method, operation] of Object.entries(item as Json)) {
        const name = `${method.toUpperCase()} ${path}`
        t.ok(operation.tags.includes('store-api'), `${name}: tagged`)
        t.type(operation.operationId, 'string', `${name}: operationId`)
        t.type(operation.summary, 'string', `${name}: summary`)
        const success = method === 'post' && path.endsWith('/add-item') ? '201' : '200'
        t.ok(operation.responses[success]?.content?.['application/json']?.schema, `${name}: ${success} schema`)
        for (const status of ['400', '503']) {
          t.same(operation.responses[status]?.content?.['application/json']?.schema, { $ref: '#/components/schemas/RestError' }, `${name}: ${status} error body`)
        }
        if (method === 'post') {
          t.ok(operation.requestBody?.content?.['application/json']?.schema?.properties, `${name}: request body schema`)
        }
        if (path.includes('/cart')) {
          t.same(operation.security, [{ cartToken: [] }, {}], `${name}: takes a Cart-Token`)
          t.ok(operation.responses[success].headers?.['Cart-Token'], `${name}: answers with a Cart-Token`)
          t.same(operation.responses[success].content['application/json'].schema, { $ref: '#/components/schemas/StoreApiCart' })
        }
      }
    }
    for (const change of ['update-item', 'remove-item']) {
      const conflict = responseSchema(document, `${STORE_API}/cart/${change}`, 'post', 409)
      t.ok(conflict.properties.data.properties.cart, `${change}: 409 carries the cart in data.cart`)
      t.not(conflict.properties.data.additionalProperties, false, `${change}: 409 data stays open`)
    }
    const list = document.paths[`${STORE_API}/products`].get
    t.same(list.parameters.map((parameter: Json) => `${parameter.in}:${parameter.name}`).sort(),
      ['query:category', 'query:page', 'query:per_page', 'query:search'])
    t.ok(list.responses['200'].headers?.['X-WP-Total'])
    t.same(document.paths[`${STORE_API}/products/{id}`].get.parameters.map((parameter: Json) => `${parameter.in}:${parameter.name}`), ['path:id'])
    t.ok(responseSchema(document, `${STORE_API}/products/{id}`, 'get', 404))
    t.equal(responseSchema(document, `${STORE_API}/products`, 'get', 200).type, 'array')
  })

  t.test("the cart schema's keys are WooCommerce's, in its order", async (t) => {
    const cart = responseSchema(document, `${STORE_API}/cart`, 'get', 200)
    t.same(Object.keys(cart.properties), WOO_CART_KEYS)
    t.same(cart.required, WOO_CART_KEYS)
    t.same(CART_KEYS, WOO_CART_KEYS)
    const item = cart.properties.items.items
    t.same(Object.keys(item.properties), ['key', 'id', 'type', 'quantity', 'quantity_limits', 'name', 'short_description',
      'description', 'sku', 'low_stock_remaining', 'backorders_allowed', 'show_backorder_badge', 'sold_individually',
      'permalink', 'images', 'variation', 'item_data', 'prices', 'totals', 'catalog_visibility', 'extensions'])
    t.same(Object.keys(cart.properties.totals.properties), ['total_items', 'total_items_tax', 'total_fees', 'total_fees_tax',
      'total_discount', 'total_discount_tax', 'total_shipping', 'total_shipping_tax', 'total_price', 'total_tax', 'tax_lines',
      'currency_code', 'currency_symbol', 'currency_minor_unit', 'currency_decimal_separator', 'currency_thousand_separator',
      'currency_prefix', 'currency_suffix'])
    t.same(cart.properties.totals.properties.total_shipping.anyOf.map((member: Json) => member.type), ['string', 'null'])
    t.ok(cart.properties.extensions.additionalProperties, 'cart extensions: an open object')
    t.ok(item.properties.extensions.additionalProperties, 'item extensions: an open object')
  })
})

test('real responses match the published schemas and lose nothing to serialisation', async (t) => {
  const { app, storage, document } = await setup(t)
  app.shop.extendSchema.register({
    namespace: 'test-extension',
    cart: () => ({ nested: { list: [1, 'two', null], flag: true } }),
    item: (line) => ({ key: line.line.key, quantity: line.line.quantity, note: null })
  })
  const shopper = new StoreApiClient(app)
  const cartSchema = responseSchema(document, `${STORE_API}/cart`, 'get', 200)

  /** What the serialiser makes of the shopper's cart, as plain JSON.stringify writes it. */
  const expectedCart = async () => {
    const key = app.shop.cartTokens.verify(shopper.token!)
    t.ok(key)
    return JSON.stringify(await serializeCart(await app.shop.carts.get(key!), app.shop.serializeContext, app.shop.extendSchema))
  }

  const added = await shopper.add(101, 2)
  t.equal(added.statusCode, 201)
  t.same(problems(responseSchema(document, `${STORE_API}/cart/add-item`, 'post', 201), added.json()), [], 'POST cart/add-item validates')
  t.equal(added.body, await expectedCart(), 'add-item: the body is the serialiser output, byte for byte')

  t.equal((await shopper.add(106, 1, [{ attribute: 'pa_color', value: 'blue' }, { attribute: 'pa_size', value: 'large' }])).statusCode, 201)
  t.equal((await shopper.add(108, 1)).statusCode, 201)
  t.equal((await shopper.request('POST', 'cart/apply-coupon', { code: 'save10' })).statusCode, 200)

  const response = await shopper.cart()
  t.equal(response.statusCode, 200)
  const cart = response.json()
  t.same(problems(cartSchema, cart), [], 'GET cart validates')
  t.equal(response.body, await expectedCart(), 'GET cart: the body is the serialiser output, byte for byte')
  t.same(Object.keys(cart), WOO_CART_KEYS)
  t.equal(cart.items.length, 3)
  t.equal(cart.fees.length, 1)
  t.equal(cart.coupons.length, 1)
  t.ok(cart.cross_sells.length > 0, 'cross-sells are products')
  t.equal(cart.items.find((item: Json) => item.id === 108).low_stock_remaining, 3)
  t.same(Object.keys(cart.extensions), ['svc', 'test-extension'], 'the service\'s namespace, then the test\'s')
  t.same(cart.extensions['test-extension'], { nested: { list: [1, 'two', null], flag: true } }, 'cart extensions pass whole')
  t.same(cart.items[0].extensions['test-extension'], { key: cart.items[0].key, quantity: 2, note: null }, 'item extensions pass whole')

  const broken = structuredClone(cart)
  delete broken.totals.currency_code
  broken.items[0].quantity = 'two'
  t.equal(problems(cartSchema, broken).length, 2, 'the validation does catch a wrong body')

  const conflict = await shopper.request('POST', 'cart/update-item', { key: 'f'.repeat(32), quantity: 1 })
  t.equal(conflict.statusCode, 409)
  t.same(problems(responseSchema(document, `${STORE_API}/cart/update-item`, 'post', 409), conflict.json()), [], '409 validates')
  t.same(Object.keys(conflict.json().data.cart), WOO_CART_KEYS)
  t.equal(conflict.json().data.cart.extensions['test-extension'].nested.flag, true)

  const invalid = await shopper.request('POST', 'cart/update-item', { quantity: 'many' })
  t.equal(invalid.statusCode, 400)
  t.same(problems(responseSchema(document, `${STORE_API}/cart/update-item`, 'post', 400), invalid.json()), [], '400 validates')
  t.same(Object.keys(invalid.json().data.params).sort(), ['key', 'quantity'], 'open error data keeps its details')

  const list = await app.inject({ url: `${STORE_API}/products?per_page=100` })
  t.equal(list.statusCode, 200)
  t.same(problems(responseSchema(document, `${STORE_API}/products`, 'get', 200), list.json()), [], 'GET products validates')
  const productSchema = responseSchema(document, `${STORE_API}/products/{id}`, 'get', 200)
  for (const id of [101, 106, 108]) {
    const one = await app.inject({ url: `${STORE_API}/products/${id}` })
    t.same(problems(productSchema, one.json()), [], `GET products/${id} validates`)
    t.equal(one.body, JSON.stringify(serializeProduct((await storage.getProduct(id))!, app.shop.serializeContext)), `product ${id}: nothing lost`)
    t.same(list.json().find((product: Json) => product.id === id), one.json(), `product ${id}: the same in the list`)
  }
  const missing = await app.inject({ url: `${STORE_API}/products/999999` })
  t.equal(missing.statusCode, 404)
  t.same(problems(responseSchema(document, `${STORE_API}/products/{id}`, 'get', 404), missing.json()), [])

  const health = await app.inject({ url: '/healthz' })
  t.same(problems(responseSchema(document, '/healthz', 'get', 200), health.json()), [])
  const ready = await app.inject({ url: '/readyz' })
  t.same(problems(responseSchema(document, '/readyz', 'get', 200), ready.json()), [])
  t.same(ready.json(), { status: 'ready', checks: { storage: { backend: 'pglite', status: 'ok' }, rate_counter: { backend: 'memory', status: 'ok' } } })
})
