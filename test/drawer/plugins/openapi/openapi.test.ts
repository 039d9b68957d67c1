import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { test } from 'tap'
import Schema from 'typebox/schema'
import { derivedOperationId } from '../../../../drawer/plugins/openapi/index.ts'
import { securitySchemes, svcSecurity } from '../../../../drawer/plugins/openapi/index.ts'
import { serializeCart, serializeProduct, CART_KEYS } from '../../../../hosts/reference-shop/index.ts'
import { demoShopConfig } from '../../../../seed/demo-config.ts'
import { buildTestApp, SITE_URL, STORE_API, StoreApiClient } from '../../../helpers/app.ts'
import { createTestPgliteStorage } from '../../../helpers/pglite.ts'

/** WooCommerce's cart keys, in its order (docs/reference/store-api.md). */
const WOO_CART_KEYS = ['items', 'coupons', 'fees', 'totals', 'shipping_address', 'billing_address', 'needs_payment',
  'needs_shipping', 'payment_requirements', 'has_calculated_shipping', 'shipping_rates', 'items_count', 'items_weight',
  'cross_sells', 'errors', 'payment_methods', 'extensions']

/** Routes declared with `schema: { hide: true }`: the document leaves them out (`GET /` is the storefront's home page). */
const HIDDEN_ROUTES = ['GET /openapi.json', 'GET /images/{slug}', 'GET /']

const SVC = '/wp-json/svc/v1'

type Json = Record<string, any>

/**
 * Every `METHOD /path` Fastify routes (HEAD routes aside), read from `printRoutes`, with `{param}` placeholders; a
 * route constrained to a classic action is `METHOD /path?wc-ajax=<action>`.
 */
function fastifyRoutes (app: FastifyInstance): Set<string> {
  const routes = new Set<string>()
  const stack: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)([├└]── )?(.+?) \(([A-Z, ]+)\)(?: (\{.*\}))?$/.exec(line)
    if (!match) continue
    const [, indent = '', branch, segment = '', methods = '', constraints] = match
    // A line without a branch is one more route (other constraints) on the node above it.
    const depth = indent.length / 4 - (branch ? 0 : 1)
    stack.length = depth
    stack.push(segment)
    const action = constraints === undefined ? undefined : (JSON.parse(constraints) as { wcAjax?: string }).wcAjax
    const path = stack.join('').replace(/:(\w+)/g, '{$1}') + (action === undefined ? '' : `?wc-ajax=${action}`)
    for (const method of methods.split(', ')) if (method !== 'HEAD') routes.add(`${method} ${path}`)
  }
  return routes
}

type Operation = { path: string, method: string, operation: Json }

function operationsOf (document: Json): Operation[] {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, operation]) => ({ path, method, operation })))
}

/** The actions an operation serves through its required `wc-ajax` query parameter (none for any other). */
function wcAjaxActions (operation: Json): string[] {
  const parameter = (operation.parameters ?? []).find((candidate: Json) => candidate.in === 'query' && candidate.name === 'wc-ajax')
  return parameter?.required === true ? parameter.schema.enum : []
}

/** Every `METHOD /path` of the document; an operation of classic actions is one `METHOD /path?wc-ajax=<action>` each. */
function documentRoutes (document: Json): Set<string> {
  const routes = new Set<string>()
  for (const { path, method, operation } of operationsOf(document)) {
    const actions = wcAjaxActions(operation)
    if (actions.length === 0) routes.add(`${method.toUpperCase()} ${path}`)
    for (const action of actions) routes.add(`${method.toUpperCase()} ${path}?wc-ajax=${action}`)
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

async function setup (t: { teardown (fn: () => unknown): void }, edition: 'free' | 'pro' = 'free') {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const app = await buildTestApp(t, storage, {
    edition,
    shop: { ...demoShopConfig, fees: [{ id: 'handling', name: 'Handling', amount: 150, taxable: true }] }
  })
  const response = await app.inject({ url: '/openapi.json' })
  return { app, storage, response, document: response.json() as Json }
}

test('the OpenAPI document: GET /openapi.json, every route, request and response schemas', async (t) => {
  const { app, response, document } = await setup(t, 'pro')

  t.test('served as JSON, OpenAPI 3.1, named, versioned, licensed, with the security schemes', async (t) => {
    t.equal(response.statusCode, 200)
    t.match(response.headers['content-type'], /^application\/json/)
    t.doesNotThrow(() => JSON.parse(response.body))
    t.equal(document.openapi, '3.1.0')
    t.equal(document.info.title, 'Cart Drawer Service')
    const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'))
    t.equal(document.info.version, pkg.version, 'the version comes from package.json')
    t.same(document.info.license, { name: pkg.license, identifier: pkg.license }, 'the licence too')
    t.same(document.servers, [{ url: SITE_URL }])
    const tags = document.tags.map((tag: Json) => tag.name)
    for (const name of ['store-api', 'health', 'svc']) t.ok(tags.includes(name), `tag ${name}`)
    t.match(document.components.securitySchemes.cartToken, { type: 'apiKey', in: 'header', name: 'Cart-Token' })
    t.match(document.components.securitySchemes.restNonce, { type: 'apiKey', in: 'header', name: 'X-WP-Nonce' })
    t.match(document.components.securitySchemes.sessionCookie, { type: 'apiKey', in: 'cookie', name: 'svc_session' })
    t.match(document.components.securitySchemes.cartCookie, { type: 'apiKey', in: 'cookie', name: 'svc_cart' })
    t.notOk(document.paths['/openapi.json'], 'the document route is not in the document')
  })

  t.test('every route of the app is in the document, and nothing else', async (t) => {
    const declared = fastifyRoutes(app)
    t.ok(declared.has(`GET ${STORE_API}/cart`), 'the route listing is read')
    t.ok(declared.has('GET /healthz'))
    for (const path of Object.keys(document.paths)) t.notOk(path.includes('?'), `${path}: no query string in the path`)
    const documented = documentRoutes(document)
    // Constrained routes (the classic `?wc-ajax=` actions) are routes of their own on one path; the document has
    // one operation per method whose required `wc-ajax` parameter lists them. Each must be a route with that
    // constraint, and each such route must be listed.
    const classic = [...documented].filter((route) => route.includes('?wc-ajax='))
    t.same(classic.sort(), ['GET /?wc-ajax=get_refreshed_fragments', 'POST /?wc-ajax=add_to_cart', 'POST /?wc-ajax=get_refreshed_fragments',
      'POST /?wc-ajax=remove_from_cart'], 'the classic actions are documented one by one')
    for (const route of classic) {
      const [, method, url, action] = /^(\w+) (.*)\?wc-ajax=(.*)$/.exec(route)!
      t.ok(app.hasRoute({ method: method as 'GET', url: url!, constraints: { wcAjax: action } }), `${route} is a route`)
    }
    const expected = [...declared].filter((route) => !HIDDEN_ROUTES.includes(route)).sort()
    t.same([...documented].sort(), expected)
  })

  t.test('the classic actions: one operation per method, the wc-ajax enum, bodies and answers as unions', async (t) => {
    const post = document.paths['/'].post
    t.equal(post.operationId, 'wcAjaxPost')
    t.match(post.parameters[0], { name: 'wc-ajax', in: 'query', required: true, schema: { type: 'string' } })
    for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
      t.same(post.requestBody.content[type].schema, { anyOf: [{ $ref: '#/components/schemas/WcAjaxAddToCartBody' }, { $ref: '#/components/schemas/WcAjaxRemoveFromCartBody' }] }, `${type} body`)
    }
    t.equal(post.requestBody.required, false, 'get_refreshed_fragments posts no body')
    t.same(post.responses['200'].content['application/json'].schema.anyOf.map((member: Json) => member.$ref.replace('#/components/schemas/', '')),
      ['WcAjaxFragments', 'WcAjaxAddToCartError', 'WcAjaxFailure'])
    for (const action of wcAjaxActions(post)) t.match(post.description, `\`${action}\``, `the description tells what ${action} does`)
    for (const operation of [post, document.paths['/'].get]) {
      t.same(operation.responses['404'].content['application/json'].schema, { $ref: '#/components/schemas/RestError' }, 'an unknown action: 404')
      t.same(operation.security, [{ cartCookie: [] }, { sessionCookie: [] }, {}], 'the cookie session')
    }
    t.same(document.paths['/'].get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/WcAjaxFragments' })
    const unknown = await app.inject({ method: 'POST', url: '/?wc-ajax=no_such_action' })
    t.equal(unknown.statusCode, 404, 'an unknown action is a 404 indeed')
    t.equal(unknown.json().code, 'svc_not_found')
  })

  t.test('every operation: a unique camelCase operationId of its own, and its security', async (t) => {
    const ids = operationsOf(document).map(({ operation }) => operation.operationId)
    t.equal(new Set(ids).size, ids.length, 'unique')
    const schemes = new Set<string>()
    for (const { path, method, operation } of operationsOf(document)) {
      const name = `${method.toUpperCase()} ${path}`
      t.match(operation.operationId, /^[a-z][A-Za-z0-9]*$/, `${name}: camelCase operationId`)
      t.not(operation.operationId, derivedOperationId(method, path), `${name}: the route names its operation`)
      if (path.startsWith(SVC)) t.match(operation.operationId, /^svc[A-Z]/, `${name}: an svc/v1 operation's id starts with svc`)
      if (!t.ok(Array.isArray(operation.security), `${name}: security`)) continue
      for (const requirement of operation.security) for (const scheme of Object.keys(requirement)) schemes.add(scheme)
    }
    t.same([...schemes].sort(), Object.keys(securitySchemes({ cart: 'cart', session: 'session' })).sort(), 'every scheme is used, and only those')
    t.same(document.paths['/healthz'].get.security, [], 'a public route: no credentials')
    t.same(document.paths['/account/rest-nonce'].get.security, [{ sessionCookie: [] }], 'the nonce needs a session')
  })

  t.test("svc/v1: security and rate limits follow each route's declared rules", async (t) => {
    const svc = operationsOf(document).filter(({ path }) => path.startsWith(SVC))
    t.ok(svc.length >= 24, 'every svc/v1 route of Pro')
    const counted = (status: string) => /^2/.test(status) || status === '429'
    for (const { path, method, operation } of svc) {
      const spec = app.svcRoutes.find((route) => route.method === method.toUpperCase() && route.path === path.slice(SVC.length))!
      const name = `${spec.method} ${spec.path}`
      t.same(operation.security, svcSecurity(spec.access), `${name}: the security of access group ${spec.access}`)
      const responses = Object.entries(operation.responses as Json)
      if (spec.rateLimit === null) {
        t.equal(operation['x-rate-limit'], undefined, `${name}: no limit`)
        t.notOk(operation.responses['429'], `${name}: no 429`)
        for (const [status, response] of responses) t.notOk(response.headers?.['X-RateLimit-Limit'], `${name} ${status}: no rate-limit headers`)
        continue
      }
      t.same(operation['x-rate-limit'], { limit: spec.rateLimit.max, window_seconds: spec.rateLimit.windowMs / 1000 }, `${name}: its limit`)
      t.match(operation.description, `${spec.rateLimit.max} requests`, `${name}: the description tells the limit`)
      t.same(operation.responses['429']?.content?.['application/json']?.schema, { $ref: '#/components/schemas/RestError' }, `${name}: 429 in the error shape`)
      t.match(operation.responses['429'].headers['Retry-After'], { required: true, schema: { type: 'integer' } }, `${name}: 429 with Retry-After`)
      for (const [status, response] of responses) {
        for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining']) {
          t.match(response.headers?.[header], { required: counted(status), schema: { type: 'integer' } }, `${name} ${status}: ${header}`)
        }
      }
    }
    const login = document.paths['/account/login'].post.responses['429']
    t.match(login.headers['Retry-After'], { required: true }, "the login's 429 carries Retry-After too")
  })

  t.test('each Store API route has its request and response schemas', async (t) => {
    const storeApi = Object.entries(document.paths as Json).filter(([path]) => path.startsWith(STORE_API))
    t.equal(storeApi.length, 20, 'cart, five cart changes, items, one item, coupons, one coupon, update-customer, ' +
      'select-shipping-rate, extensions, batch, checkout, order, products, one product, categories, one category')
    // WooCommerce's statuses: a creation answers 201, a deletion of one 204, a batch 207.
    const successOf = (method: string, path: string) =>
      method === 'post' && /\/(add-item|cart\/items|cart\/coupons)$/.test(path)
        ? '201'
        : method === 'delete' && /\{(key|code)\}$/.test(path) ? '204' : path.endsWith('/batch') ? '2XX' : '200'
    // The routes that answer the whole cart (the others answer an item, a coupon, a list, nothing, or a batch).
    const answersCart = (method: string, path: string) =>
      !/\/cart\/(items|coupons)/.test(path) && !path.endsWith('/batch') && (method === 'get' || method === 'post')
    for (const [path, item] of storeApi) {
      for (const [method, operation] of Object.entries(item as Json)) {
        const name = `${method.toUpperCase()} ${path}`
        t.ok(operation.tags.includes('store-api'), `${name}: tagged`)
        t.type(operation.operationId, 'string', `${name}: operationId`)
        t.type(operation.summary, 'string', `${name}: summary`)
        const success = successOf(method, path)
        if (success !== '204') t.ok(operation.responses[success]?.content?.['application/json']?.schema, `${name}: ${success} schema`)
        for (const status of ['400', '503']) {
          t.same(operation.responses[status]?.content?.['application/json']?.schema, { $ref: '#/components/schemas/RestError' }, `${name}: ${status} error body`)
        }
        if (method === 'post') {
          t.ok(operation.requestBody?.content?.['application/json']?.schema?.properties, `${name}: request body schema`)
        }
        if (path.endsWith('/checkout')) {
          t.same(operation.security, [{ cartToken: [] }, { cartCookie: [] }, { sessionCookie: [] }, {}], `${name}: the checkout is the cart's`)
          t.ok(operation.responses['200'].headers?.['Cart-Token'], `${name}: answers with a Cart-Token`)
          t.same(operation.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/StoreApiCheckout' })
        }
        if (/\/order\/\{id\}$/.test(path)) {
          t.same(operation.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/StoreApiOrder' })
          for (const status of ['401', '403', '404']) t.ok(operation.responses[status], `${name}: answers ${status}`)
        }
        if (path.includes('/cart')) {
          t.same(operation.security, [{ cartToken: [] }, { cartCookie: [] }, { sessionCookie: [] }, {}], `${name}: takes a Cart-Token, the cookies, or nothing`)
          t.ok(operation.responses[success].headers?.['Cart-Token'], `${name}: answers with a Cart-Token`)
          if (answersCart(method, path)) t.same(operation.responses[success].content['application/json'].schema, { $ref: '#/components/schemas/StoreApiCart' })
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
      ['query:catalog_visibility', 'query:category', 'query:category_operator', 'query:exclude', 'query:featured', 'query:include',
        'query:max_price', 'query:min_price', 'query:on_sale', 'query:order', 'query:orderby', 'query:page', 'query:parent',
        'query:parent_exclude', 'query:per_page', 'query:related', 'query:search', 'query:sku', 'query:slug', 'query:stock_status', 'query:type'])
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
    const stored = (await storage.getProduct(id))!
    const variations = [...(await storage.getProducts(stored.variationIds)).values()]
    const relatives = { storeApiUrl: `${SITE_URL}${STORE_API}`, variations: stored.type === 'variable' ? variations : undefined }
    t.equal(one.body, JSON.stringify(serializeProduct(stored, app.shop.serializeContext, relatives)), `product ${id}: nothing lost`)
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
