import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifySchema } from 'fastify'
import fp from 'fastify-plugin'
import swagger, { type SwaggerTransform } from '@fastify/swagger'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import type {} from '../security/index.ts'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../idempotency/index.ts'
import { addRateLimitHeaders, addRetryAfterToRefusals, RATE_LIMIT_EXTENSION, rateLimitExtension, rateLimitSentence } from './rate-limit.ts'
import { securitySchemes, STORE_API_CART_SECURITY, svcSecurity, type CookieNames } from './security.ts'
import { actionPath, mergeWcAjaxActions } from './wc-ajax.ts'

export interface OpenapiServer {
  url: string
  description?: string
}

export interface OpenapiPluginOptions {
  /** The names of the platform's cart and session cookies, for their security schemes. */
  cookies: CookieNames
  /** The servers the document names (for example the site URL). Default: none. */
  servers?: readonly OpenapiServer[]
  /** The API version in the document. Default: the package's version (package.json). */
  version?: string
  /** Where the document is served. Default `/openapi.json`. */
  documentPath?: string
  /**
   * Routes (by URL) that take the `Cart-Token` header and answer with `Cart-Token` and `Cart-Hash`: the document
   * gives them the Store API cart's security (`STORE_API_CART_SECURITY`) and those response headers. Default: the
   * Store API cart routes.
   */
  cartTokenRoutes?: RegExp
}

export const OPENAPI_TAGS = [
  { name: 'store-api', description: "The platform's Store API (`{restRoot}wc/store/v1/`), as WooCommerce's." },
  { name: 'classic', description: 'The classic AJAX cart (`?wc-ajax=`), as WooCommerce\'s.' },
  { name: 'account', description: 'Logging in and out, REST nonces.' },
  { name: 'svc', description: 'The cart drawer service.' },
  { name: 'health', description: 'Liveness and readiness probes.' },
  { name: 'storefront', description: "The demo storefront's pages and script." },
  { name: 'drawer', description: "The drawer and launcher's browser script." },
  { name: 'admin', description: "The admin screens' pages, script and stylesheet." }
]

const DEFAULT_CART_TOKEN_ROUTES = /\/wc\/store\/v1\/(cart|checkout)(\/|$)/

const cartResponseHeaders = {
  'Cart-Token': {
    type: 'string',
    description: 'A fresh Cart-Token for this cart (HS256 JWT, valid 48 hours): send it back in the `Cart-Token` request header.'
  },
  'Cart-Hash': { type: 'string', description: 'A hash of the cart contents and total.' }
}

const productListHeaders = {
  'X-WP-Total': { type: 'string', description: 'Number of matching products.' },
  'X-WP-TotalPages': { type: 'string', description: 'Number of pages.' }
}

interface PackageInfo {
  version: string
  license: string | null
}

/** The version and licence of the nearest `package.json` above this file (source and compiled layouts alike). */
function packageInfo (): PackageInfo {
  let directory = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { version?: string, license?: string }
      if (typeof pkg.version === 'string') return { version: pkg.version, license: typeof pkg.license === 'string' ? pkg.license : null }
    } catch {
      // no package.json here: look further up
    }
    const parent = dirname(directory)
    if (parent === directory) return { version: '0.0.0', license: null }
    directory = parent
  }
}

type ResponseMap = Record<string, Record<string, unknown>>

/** Adds response headers to the 2xx responses of a route schema, without touching the route's own schema. */
function withSuccessHeaders (response: unknown, headers: Record<string, unknown>): ResponseMap | undefined {
  if (response === null || typeof response !== 'object') return undefined
  const copy: ResponseMap = {}
  for (const [status, schema] of Object.entries(response as ResponseMap)) {
    copy[status] = /^2/.test(status) ? { ...schema, headers: { ...headers, ...(schema.headers as object | undefined) } } : schema
  }
  return copy
}

type Json = Record<string, unknown>

function isObject (value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** A schema named by its `title` (`StoreApiCart`, `RestError`…), as opposed to any other object of the document. */
function titledSchema (node: unknown): node is Json & { title: string } {
  return isObject(node) && typeof node.title === 'string' && /^[A-Za-z0-9._-]+$/.test(node.title) &&
    (typeof node.type === 'string' || Array.isArray(node.type) || Array.isArray(node.anyOf))
}

/**
 * Moves every titled schema of the operations to `components.schemas[title]` and replaces each occurrence with a
 * `$ref`: the cart, the product, the error body… are described once instead of in every response. A title used by
 * schemas that differ, or already taken in `components.schemas`, is left inline.
 */
function hoistTitledSchemas (document: Json): Json {
  const components = isObject(document.components) ? document.components : {}
  const existing = isObject(components.schemas) ? components.schemas : {}
  const seen = new Map<string, { json: string, schema: Json } | null>()

  const collect = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) collect(child)
      return
    }
    if (!isObject(node)) return
    if (titledSchema(node)) {
      const json = JSON.stringify(node)
      const known = seen.get(node.title)
      if (known === undefined) seen.set(node.title, Object.hasOwn(existing, node.title) ? null : { json, schema: node })
      else if (known !== null && known.json !== json) seen.set(node.title, null)
    }
    for (const child of Object.values(node)) collect(child)
  }
  collect(document.paths)

  const hoisted = (node: unknown): node is Json & { title: string } => titledSchema(node) && Boolean(seen.get(node.title))
  const replace = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(replace)
    if (!isObject(node)) return node
    if (hoisted(node)) return { $ref: `#/components/schemas/${node.title}` }
    return replaceChildren(node)
  }
  const replaceChildren = (node: Json): Json => Object.fromEntries(Object.entries(node).map(([key, value]) => [key, replace(value)]))

  const schemas: Json = { ...existing }
  for (const [title, entry] of seen) {
    if (entry) schemas[title] = replaceChildren(entry.schema)
  }
  return { ...document, paths: replace(document.paths), components: { ...components, schemas } }
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/** The operations of the document's paths, with their method and path. */
function * operationsOf (paths: Json): Generator<{ path: string, method: string, operation: Json }> {
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.has(method) && isObject(operation)) yield { path, method, operation }
    }
  }
}

/**
 * The operationId of a route that declares none: the method and the path's words in camelCase
 * (`GET /wp-json/svc/v1/cart` → `getWpJsonSvcV1Cart`). The app's own routes each declare theirs.
 */
export function derivedOperationId (method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean)
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('')
}

/** Gives an operationId to every operation that has none, keeping them unique. */
function completeOperationIds (paths: Json): void {
  const taken = new Set<string>()
  for (const { operation } of operationsOf(paths)) if (typeof operation.operationId === 'string') taken.add(operation.operationId)
  for (const { path, method, operation } of operationsOf(paths)) {
    if (typeof operation.operationId === 'string') continue
    const base = derivedOperationId(method, path)
    let id = base
    for (let n = 2; taken.has(id); n++) id = `${base}${n}`
    taken.add(id)
    operation.operationId = id
  }
}

/**
 * The document as served: the classic `?wc-ajax=` actions merged into operations, the rate-limit headers of every
 * answer of a limited route and `Retry-After` on every 429, an operationId on every operation, and the titled
 * schemas in `components.schemas`.
 */
function finishDocument (document: Json, license: string | null): Json {
  const paths = mergeWcAjaxActions(isObject(document.paths) ? document.paths : {})
  for (const { operation } of operationsOf(paths)) {
    addRateLimitHeaders(operation)
    addRetryAfterToRefusals(operation)
  }
  completeOperationIds(paths)
  const info = isObject(document.info) ? document.info : {}
  return hoistTitledSchemas({
    ...document,
    info: license === null ? info : { ...info, license: { name: license, identifier: license } },
    paths
  })
}

/** The route's description with one more paragraph. */
function described (schema: FastifySchema, paragraph: string): string {
  const description = (schema as { description?: unknown }).description
  return typeof description === 'string' && description !== '' ? `${description}\n\n${paragraph}` : paragraph
}

const idempotencyKeyHeader = {
  type: 'object',
  properties: {
    [IDEMPOTENCY_KEY_HEADER]: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'A key of the client\'s (a new one per change, the same one for its retries): the first request is applied ' +
        'once and its answer kept for 24 hours; a repeat with the same method, path and body for the same cart and user gets ' +
        'that answer again. 1 to 255 visible ASCII characters (else 400 `svc_idempotency_key_invalid`).'
    }
  }
}

const replayedHeader = {
  [IDEMPOTENT_REPLAYED_HEADER]: { type: 'string', enum: ['true'], description: 'The answer is the one kept for the request\'s `Idempotency-Key`.' }
}

/** A route that declares `config.idempotent`: the `Idempotency-Key` header, its refusals and the replay header. */
function withIdempotencyKey (schema: FastifySchema): FastifySchema {
  const response = { ...(withSuccessHeaders(schema.response, replayedHeader) ?? schema.response as object | undefined) } as ResponseMap
  response[409] ??= { ...ErrorBody, 'x-response-description': 'The first request with this `Idempotency-Key` still runs after 10 seconds (`svc_idempotency_key_in_use`, `Retry-After`).' }
  response[422] ??= { ...ErrorBody, 'x-response-description': 'The `Idempotency-Key` was used for another request (`svc_idempotency_key_reused`).' }
  const headers = schema.headers as { properties?: object } | undefined
  return {
    ...schema,
    headers: { ...idempotencyKeyHeader, ...headers, properties: { ...idempotencyKeyHeader.properties, ...headers?.properties } },
    description: described(schema, 'Takes an `Idempotency-Key`: a repeat with the same key and request is answered as the first was, ' +
      'without a second change (`Idempotent-Replayed: true`), and waits for the first while it runs (409 `svc_idempotency_key_in_use` ' +
      'after 10 seconds); the key with another request answers 422 `svc_idempotency_key_reused`. A 5xx answer is not kept.'),
    response
  }
}

/**
 * The OpenAPI document of every route declared after this plugin, served as JSON at `GET /openapi.json` (that
 * route itself stays out of the document). Register it before the other plugins: it collects routes as they are
 * declared.
 */
export const openapiPlugin = fp<OpenapiPluginOptions>(async (fastify, options) => {
  const cartTokenRoutes = options.cartTokenRoutes ?? DEFAULT_CART_TOKEN_ROUTES
  const documentPath = options.documentPath ?? '/openapi.json'
  const pkg = packageInfo()

  const transform: SwaggerTransform = ({ schema, url: declared, route }) => {
    // The classic `?wc-ajax=<action>` routes share one path and differ by a router constraint: each keeps a path of
    // its own until the document is finished, which merges them into one operation per method (./wc-ajax.ts).
    const action = (route.constraints as Record<string, unknown> | undefined)?.wcAjax
    const url = typeof action === 'string' ? actionPath(declared, action) : declared
    if (schema === undefined || schema === null) return { schema, url }
    let result: FastifySchema = schema
    if (typeof action === 'string') {
      const notFound = { ...ErrorBody, 'x-response-description': 'No `wc-ajax` action of that name (`svc_not_found`).' }
      result = { ...result, response: { ...(result.response as object | undefined), 404: notFound } }
    }
    // An `svc/v1` route's access group and rate limit, as the route declares them.
    const rules = route.config?.svc
    if (rules !== undefined) {
      result = { ...result, security: result.security ?? svcSecurity(rules.access) }
      if (rules.rateLimit != null) {
        const limit = rateLimitExtension(rules.rateLimit)
        const refused = { ...ErrorBody, 'x-response-description': 'The rate limit is used up (`svc_rate_limit_exhausted`).' }
        const extension: Record<string, unknown> = { [RATE_LIMIT_EXTENSION]: limit }
        result = {
          ...result,
          description: described(result, rateLimitSentence(limit)),
          response: { ...(result.response as object | undefined), 429: refused },
          ...extension
        }
      }
    }
    if (cartTokenRoutes.test(url)) {
      result = {
        ...result,
        security: result.security ?? STORE_API_CART_SECURITY,
        response: withSuccessHeaders(result.response, cartResponseHeaders) ?? result.response
      }
    }
    if (route.config?.idempotent === true) result = withIdempotencyKey(result)
    if (/\/wc\/store\/v1\/products$/.test(url)) {
      result = { ...result, response: withSuccessHeaders(result.response, productListHeaders) ?? result.response }
    }
    return { schema: result, url }
  }

  await fastify.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cart Drawer Service',
        description: 'A shop platform imitating the WooCommerce Store API, and the cart drawer service on top of it. ' +
          'Every error has the WordPress REST shape `{code, message, data: {status, …}}`.',
        version: options.version ?? pkg.version
      },
      servers: (options.servers ?? []).map((server) => ({ ...server })),
      tags: OPENAPI_TAGS,
      components: { securitySchemes: securitySchemes(options.cookies) }
    },
    hideUntagged: false,
    transformObject: (document) => finishDocument(('openapiObject' in document ? document.openapiObject : document.swaggerObject) as Json, pkg.license),
    // Paths stay as declared even when a server URL has a path.
    stripBasePath: false,
    transform
  })

  fastify.get(documentPath, { schema: { hide: true } }, async (_request, reply) => {
    reply.type('application/json; charset=utf-8')
    return fastify.swagger()
  })
}, { name: 'openapi', fastify: '5.x' })

export {
  COOKIE_CART_SECURITY, LOGIN_SECURITY, OPTIONAL_SESSION_SECURITY, PUBLIC_SECURITY, securitySchemes, SESSION_SECURITY,
  STORE_API_CART_SECURITY, svcSecurity, type CookieNames, type SecurityRequirement
} from './security.ts'
