import type { LightMyRequestResponse } from 'fastify'
import Schema from 'typebox/schema'
import { SVC_ROUTES } from '../../../helpers/routes.ts'
import { SVC } from '../../../helpers/security.ts'
import { adminRequest, BLUE_LARGE, onEveryBackend, Shopper, type Json } from './helpers.ts'

/**
 * The OpenAPI document (`GET /openapi.json`) of the Free edition: every Free route of `svc/v1` (specification
 * §4.2) with its request and response schemas, none of them a 501 placeholder; real answers match what it publishes.
 */

interface FreeRoute {
  method: 'get' | 'post' | 'delete'
  path: string
  access: 'cart' | 'admin'
  /** Where the request carries data: a JSON body, the query string, or nothing. */
  request: 'body' | 'query' | null
  /** Statuses the route answers besides 200 that the document must describe with their own body. */
  errors: string[]
}

/** Specification §4.2, Free rows; design §3.7 for what each takes and answers. */
const FREE_ROUTES: FreeRoute[] = [
  { method: 'get', path: '/cart', access: 'cart', request: null, errors: ['400', '403'] },
  { method: 'post', path: '/cart/remove-items', access: 'cart', request: 'body', errors: ['400', '403', '409', '413', '429'] },
  { method: 'post', path: '/coupon', access: 'cart', request: 'body', errors: ['400', '403', '409', '413', '429'] },
  { method: 'delete', path: '/coupon', access: 'cart', request: 'body', errors: ['400', '403', '404', '413', '429'] },
  { method: 'get', path: '/drawer-data', access: 'cart', request: 'query', errors: ['400', '403'] },
  { method: 'get', path: '/recommendations', access: 'cart', request: null, errors: ['403'] },
  { method: 'post', path: '/recommendations/add', access: 'cart', request: 'body', errors: ['400', '403', '404', '413', '429'] },
  { method: 'get', path: '/settings', access: 'admin', request: null, errors: ['401', '403'] },
  { method: 'post', path: '/settings', access: 'admin', request: 'body', errors: ['400', '401', '403', '409', '413', '429'] },
  { method: 'delete', path: '/settings', access: 'admin', request: null, errors: ['401', '403', '429'] },
  { method: 'get', path: '/settings/export', access: 'admin', request: null, errors: ['401', '403'] },
  { method: 'post', path: '/settings/import', access: 'admin', request: 'body', errors: ['400', '401', '403', '413', '429'] }
]

const label = (route: FreeRoute): string => `${route.method.toUpperCase()} ${route.path}`

/** The schema with every `#/components/schemas/…` reference replaced by the component. */
function dereference (document: Json, node: unknown): any {
  if (Array.isArray(node)) return node.map((child) => dereference(document, child))
  if (node === null || typeof node !== 'object') return node
  const ref = (node as Json).$ref
  if (typeof ref === 'string') {
    const target = document.components.schemas[ref.replace('#/components/schemas/', '')]
    if (target === undefined) throw new Error(`unresolved ${ref}`)
    return dereference(document, target)
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, dereference(document, value)]))
}

function operation (document: Json, route: Pick<FreeRoute, 'method' | 'path'>): Json | undefined {
  return document.paths[`${SVC}${route.path}`]?.[route.method]
}

function responseSchema (document: Json, route: Pick<FreeRoute, 'method' | 'path'>, status: number): Json {
  const schema = operation(document, route)?.responses?.[String(status)]?.content?.['application/json']?.schema
  if (schema === undefined) throw new Error(`no ${status} schema for ${route.method} ${route.path}`)
  return dereference(document, schema)
}

/** The validation errors of a body against a published schema, as readable lines (none when it is valid). */
function problems (schema: Json, body: unknown): string[] {
  const [, errors] = Schema.Errors(schema, body)
  return errors.map((error) => `${error.instancePath || '/'} ${error.message}`)
}

onEveryBackend('the OpenAPI document of the Free edition', async (t, free) => {
  const { app } = free
  const response = await app.inject({ url: '/openapi.json' })
  t.equal(response.statusCode, 200)
  const document = response.json() as Json

  t.test('the route table\'s Free rows are the routes checked here', async (t) => {
    const table = SVC_ROUTES.filter((spec) => spec.edition === 'free').map((spec) => `${spec.method} ${spec.path} ${spec.access}`)
    t.same(table.sort(), FREE_ROUTES.map((route) => `${label(route)} ${route.access}`).sort())
  })

  t.test('every Free route is in the document with its request and response schemas', async (t) => {
    for (const route of FREE_ROUTES) {
      const name = label(route)
      const op = operation(document, route)
      if (!t.ok(op, `${name}: documented`)) continue
      t.ok(op!.tags?.includes('svc'), `${name}: tagged svc`)
      t.type(op!.summary, 'string', `${name}: a summary`)
      const success = responseSchema(document, route, 200)
      t.equal(success.type, 'object', `${name}: a 200 schema`)
      t.ok(Object.keys(success.properties ?? {}).length > 0, `${name}: the 200 schema names its properties`)
      for (const status of route.errors) {
        const error = responseSchema(document, route, Number(status))
        t.same(error.required?.slice().sort(), ['code', 'data', 'message'], `${name}: ${status} is the error shape`)
      }
      const body = op!.requestBody?.content?.['application/json']?.schema
      const query = (op!.parameters ?? []).filter((parameter: Json) => parameter.in === 'query')
      if (route.request === 'body') {
        const schema = dereference(document, body)
        t.ok(schema?.properties && Object.keys(schema.properties).length > 0, `${name}: a request body schema`)
        // The import is checked by its route so that every problem of a file is listed at once: nothing required.
        if (route.path !== '/settings/import') t.ok(schema?.required?.length > 0, `${name}: the body's required properties`)
      } else {
        t.equal(body, undefined, `${name}: no request body`)
      }
      if (route.request === 'query') t.ok(query.length > 0, `${name}: its query parameters`)
      else t.same(query, [], `${name}: no query parameters`)
    }
  })

  t.test('the shapes of design §3.7 are published', async (t) => {
    const state = responseSchema(document, { method: 'get', path: '/cart' }, 200)
    t.same(Object.keys(state.properties).slice(0, 10), ['cartItems', 'cartCount', 'cartTotal', 'cartSubtotal', 'cartFees',
      'cartTax', 'coupons', 'currency', 'optionalLockedKeys', 'cartHash'])
    for (const route of [{ method: 'post', path: '/cart/remove-items' }, { method: 'post', path: '/coupon' }, { method: 'delete', path: '/coupon' }, { method: 'post', path: '/recommendations/add' }] as const) {
      t.same(responseSchema(document, route, 200), state, `${route.method} ${route.path}: answers the drawer's cart state`)
    }
    const conflict = responseSchema(document, { method: 'post', path: '/cart/remove-items' }, 409)
    t.ok(conflict.properties.data.properties.keys && conflict.properties.data.properties.cart, 'remove-items 409: data.keys and data.cart')
    t.same(responseSchema(document, { method: 'post', path: '/cart/remove-items' }, 409).properties.data.properties.cart, state)
    const removeBody = dereference(document, operation(document, { method: 'post', path: '/cart/remove-items' })!.requestBody.content['application/json'].schema)
    t.match(removeBody.properties.keys, { type: 'array', minItems: 1, maxItems: 100, uniqueItems: true, items: { type: 'string' } }, 'keys: 1 to 100 unique strings')
    const couponBody = dereference(document, operation(document, { method: 'post', path: '/coupon' })!.requestBody.content['application/json'].schema)
    t.match(couponBody, { required: ['code'], properties: { code: { type: 'string' } } })
    const addBody = dereference(document, operation(document, { method: 'post', path: '/recommendations/add' })!.requestBody.content['application/json'].schema)
    t.match(addBody, { required: ['product_id'], properties: { product_id: { type: 'integer' } } })
    const fields = operation(document, { method: 'get', path: '/drawer-data' })!.parameters.find((parameter: Json) => parameter.name === 'fields')
    t.match(fields, { in: 'query', required: false, schema: { type: 'string' } }, 'drawer-data: the optional fields parameter')
    t.same(Object.keys(responseSchema(document, { method: 'get', path: '/drawer-data' }, 200).properties).slice(0, 2), ['cart', 'recommendations'])
    t.same(Object.keys(responseSchema(document, { method: 'get', path: '/settings' }, 200).properties), ['settings', 'version'])
    t.match(responseSchema(document, { method: 'post', path: '/settings' }, 409), { properties: { data: { properties: { version: { type: 'integer' } } } } }, 'settings 409: data.version')
    t.same(Object.keys(responseSchema(document, { method: 'get', path: '/settings/export' }, 200).properties), ['format', 'schema_version', 'exported_at', 'settings'])
    const saveBody = dereference(document, operation(document, { method: 'post', path: '/settings' })!.requestBody.content['application/json'].schema)
    t.same(Object.keys(saveBody.properties), ['settings', 'version'])
  })

  t.test('every Free route has its handler, and the Pro routes are not there', async (t) => {
    const shopper = await Shopper.guest(app)
    for (const route of FREE_ROUTES) {
      const method = route.method.toUpperCase() as 'GET' | 'POST' | 'DELETE'
      const body = method === 'POST' ? {} : undefined
      const answer = route.access === 'cart'
        ? await shopper.svc(method, route.path.slice(1), body)
        : await adminRequest(free, method, route.path.slice(1), body)
      t.not(answer.statusCode, 501, `${label(route)}: not 501 (${answer.statusCode})`)
    }
    for (const spec of SVC_ROUTES.filter((row) => row.edition === 'pro')) {
      t.notOk(operation(document, { method: spec.method.toLowerCase() as FreeRoute['method'], path: spec.path }), `${spec.method} ${spec.path} (Pro): not documented`)
      const answer = await shopper.svc(spec.method, spec.path.slice(1), spec.method === 'GET' ? undefined : {})
      t.equal(answer.statusCode, 404, `${spec.method} ${spec.path} (Pro): 404 in Free`)
    }
  })

  t.test('real answers match the published schemas', async (t) => {
    const check = (route: Pick<FreeRoute, 'method' | 'path'>, answer: LightMyRequestResponse, what: string) => {
      t.same(problems(responseSchema(document, route, answer.statusCode), answer.json()), [], `${route.method.toUpperCase()} ${route.path} ${answer.statusCode} (${what}) validates`)
    }
    const shopper = await Shopper.guest(app)
    await shopper.add(101, 2)
    await shopper.add(106, 1, BLUE_LARGE)
    check({ method: 'post', path: '/coupon' }, await shopper.svc('POST', 'coupon', { code: 'save10' }), 'coupon applied')
    check({ method: 'post', path: '/coupon' }, await shopper.svc('POST', 'coupon', { code: 'save10' }), 'already applied')
    check({ method: 'post', path: '/coupon' }, await shopper.svc('POST', 'coupon', { code: 'expired' }), 'expired')
    check({ method: 'delete', path: '/coupon' }, await shopper.svc('DELETE', 'coupon', { code: 'fiver' }), 'not applied')
    check({ method: 'get', path: '/cart' }, await shopper.svc('GET', 'cart'), 'a cart with lines and a coupon')
    check({ method: 'get', path: '/drawer-data' }, await shopper.svc('GET', 'drawer-data'), 'every section')
    check({ method: 'get', path: '/drawer-data' }, await shopper.svc('GET', 'drawer-data?fields=bogus'), 'unknown section')
    check({ method: 'get', path: '/recommendations' }, await shopper.svc('GET', 'recommendations'), 'cross-sells')
    check({ method: 'post', path: '/recommendations/add' }, await shopper.svc('POST', 'recommendations/add', { product_id: 102 }), 'added')
    check({ method: 'post', path: '/recommendations/add' }, await shopper.svc('POST', 'recommendations/add', { product_id: 999999 }), 'unknown product')
    check({ method: 'post', path: '/cart/remove-items' }, await shopper.svc('POST', 'cart/remove-items', { keys: ['0'.repeat(32)] }), 'unknown key')
    check({ method: 'post', path: '/cart/remove-items' }, await shopper.svc('POST', 'cart/remove-items', { keys: [] }), 'invalid body')
    const { cart } = await shopper.storeCart()
    check({ method: 'post', path: '/cart/remove-items' }, await shopper.svc('POST', 'cart/remove-items', { keys: [cart.items[0].key] }), 'removed')

    const { version } = (await adminRequest(free, 'GET', 'settings')).json()
    check({ method: 'get', path: '/settings' }, await adminRequest(free, 'GET', 'settings'), 'read')
    check({ method: 'post', path: '/settings' }, await adminRequest(free, 'POST', 'settings', { settings: { enabled: false }, version }), 'saved')
    check({ method: 'post', path: '/settings' }, await adminRequest(free, 'POST', 'settings', { settings: { enabled: true }, version }), 'conflict')
    check({ method: 'post', path: '/settings' }, await adminRequest(free, 'POST', 'settings', { settings: { enabled: 'no' } }), 'invalid')
    const file = await adminRequest(free, 'GET', 'settings/export')
    check({ method: 'get', path: '/settings/export' }, file, 'export')
    check({ method: 'post', path: '/settings/import' }, await adminRequest(free, 'POST', 'settings/import', file.json()), 'import')
    check({ method: 'post', path: '/settings/import' }, await adminRequest(free, 'POST', 'settings/import', { ...file.json<Json>(), format: 'x' }), 'bad import')
    check({ method: 'delete', path: '/settings' }, await adminRequest(free, 'DELETE', 'settings'), 'reset')
  })
})
