import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifySchema } from 'fastify'
import fp from 'fastify-plugin'
import swagger, { type SwaggerTransform } from '@fastify/swagger'

export interface OpenapiServer {
  url: string
  description?: string
}

export interface OpenapiPluginOptions {
  /** The servers the document names (for example the site URL). Default: none. */
  servers?: readonly OpenapiServer[]
  /** The API version in the document. Default: the package's version (package.json). */
  version?: string
  /** Where the document is served. Default `/openapi.json`. */
  documentPath?: string
  /**
   * Routes (by URL) that take the `Cart-Token` header and answer with `Cart-Token` and `Cart-Hash`: the document
   * gives them the `cartToken` security scheme and those response headers. Default: the Store API cart routes.
   */
  cartTokenRoutes?: RegExp
}

/** The name of the `Cart-Token` security scheme in `components.securitySchemes`. */
export const CART_TOKEN_SCHEME = 'cartToken'

/** `security` of an operation that accepts a Cart-Token and works without one (a new cart starts). */
export const CART_TOKEN_SECURITY: ReadonlyArray<Record<string, readonly string[]>> = [{ [CART_TOKEN_SCHEME]: [] }, {}]

export const OPENAPI_TAGS = [
  { name: 'store-api', description: "The platform's Store API (`{restRoot}wc/store/v1/`), as WooCommerce's." },
  { name: 'classic', description: 'The classic AJAX cart (`?wc-ajax=`), as WooCommerce\'s.' },
  { name: 'account', description: 'Logging in and out, REST nonces.' },
  { name: 'svc', description: 'The cart drawer service.' },
  { name: 'health', description: 'Liveness and readiness probes.' }
]

const DEFAULT_CART_TOKEN_ROUTES = /\/wc\/store\/v1\/cart(\/|$)/

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

/** The version of the nearest `package.json` above this file (source and compiled layouts alike). */
function packageVersion (): string {
  let directory = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name?: string, version?: string }
      if (typeof pkg.version === 'string') return pkg.version
    } catch {
      // no package.json here: look further up
    }
    const parent = dirname(directory)
    if (parent === directory) return '0.0.0'
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

/**
 * The OpenAPI document of every route declared after this plugin, served as JSON at `GET /openapi.json` (that
 * route itself stays out of the document). Register it before the other plugins: it collects routes as they are
 * declared.
 */
export const openapiPlugin = fp<OpenapiPluginOptions>(async (fastify, options) => {
  const cartTokenRoutes = options.cartTokenRoutes ?? DEFAULT_CART_TOKEN_ROUTES
  const documentPath = options.documentPath ?? '/openapi.json'

  const transform: SwaggerTransform = ({ schema, url: declared, route }) => {
    // The classic `?wc-ajax=<action>` routes share one path and differ by a router constraint: each gets a path of
    // its own in the document, or they would overwrite each other.
    const action = (route.constraints as Record<string, unknown> | undefined)?.wcAjax
    const url = typeof action === 'string' ? `${declared}?wc-ajax=${action}` : declared
    if (schema === undefined || schema === null) return { schema, url }
    let result: FastifySchema = schema
    if (cartTokenRoutes.test(url)) {
      result = {
        ...result,
        security: result.security ?? CART_TOKEN_SECURITY,
        response: withSuccessHeaders(result.response, cartResponseHeaders) ?? result.response
      }
    }
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
        version: options.version ?? packageVersion()
      },
      servers: (options.servers ?? []).map((server) => ({ ...server })),
      tags: OPENAPI_TAGS,
      components: {
        securitySchemes: {
          [CART_TOKEN_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: 'Cart-Token',
            description: 'The Cart-Token of an earlier response names the cart (HS256 JWT, 48 hours). Without one, ' +
              'the signed `svc_cart` cookie names the cart, or a new cart starts; an invalid or expired token starts a new cart.'
          }
        }
      }
    },
    hideUntagged: false,
    transformObject: (document) => hoistTitledSchemas(('openapiObject' in document ? document.openapiObject : document.swaggerObject) as Json),
    // Paths stay as declared even when a server URL has a path.
    stripBasePath: false,
    transform
  })

  fastify.get(documentPath, { schema: { hide: true } }, async (_request, reply) => {
    reply.type('application/json; charset=utf-8')
    return fastify.swagger()
  })
}, { name: 'openapi', fastify: '5.x' })
