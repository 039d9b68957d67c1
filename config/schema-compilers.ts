import { createRequire } from 'node:module'
import type { FastifyServerOptions } from 'fastify'

/**
 * The schema compilers of the app's root Fastify instance (`schemaController.compilersFactory`): Fastify's own
 * defaults, `@fastify/ajv-compiler` and `@fastify/fast-json-stringify-compiler`, made once for the process instead
 * of once per instance, so that a schema object compiled for one app instance is not compiled again for the next
 * (the tests build hundreds) nor for the next route of the same instance that shares it (the error body answers
 * every route's 4xx).
 *
 * - Validators: one `@fastify/ajv-compiler` factory per set of external schemas and `ajv` options, so the instances
 *   that agree share one Ajv, and Ajv compiles a schema object once (its own cache, keyed by the object).
 * - Serializers: `@fastify/fast-json-stringify-compiler` keeps nothing, so the functions it builds are kept here in
 *   a WeakMap keyed by the schema object (as Fastify keeps `reply.compileSerializationSchema`'s), one per set of
 *   external schemas and `serializerOpts`.
 *
 * What a compiled function depends on is the schema object, the external schemas (`addSchema`, which `$ref`s
 * resolve to) and the options: all three are in the key, the external schemas and options by value (functions in
 * them, such as Ajv plugins or `onCreate`, by identity), so two instances share a compiled function only when
 * either would have compiled the same one. Compiled functions hold no instance.
 *
 * One difference from Fastify's default: with a compiler factory given, Fastify passes a `headers` schema as
 * written instead of lower-casing its header names, so a `headers` schema that names a header in upper case is
 * refused when the route is added (Node.js gives every request header name in lower case).
 */

/** What Fastify passes a compiler for each schema of a route (fastify's lib/validation.js). */
interface RouteSchema {
  schema: unknown
  method?: string
  url?: string
  httpPart?: string
  httpStatus?: string
  contentType?: string
}
type Compiler = (route: RouteSchema) => unknown
type CompilerFactory = (externalSchemas: unknown, options: unknown) => Compiler

// Resolved from fastify's own location: the very versions Fastify would create by default.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'))
const AjvCompiler = fromFastify('@fastify/ajv-compiler') as () => CompilerFactory
const SerializerSelector = fromFastify('@fastify/fast-json-stringify-compiler') as () => CompilerFactory

const functionIds = new WeakMap<object, number>()
let nextFunctionId = 0

/**
 * The external schemas and options as a key: JSON, with each function named by its identity and each RegExp by
 * its source. Undefined (nothing shared) for what JSON cannot say (a BigInt, a cycle).
 */
function keyOf (externalSchemas: unknown, options: unknown): string | undefined {
  try {
    return JSON.stringify([externalSchemas, options], (_key, value: unknown) => {
      if (typeof value === 'function') {
        let id = functionIds.get(value)
        if (id === undefined) functionIds.set(value, id = nextFunctionId++)
        return `[function ${id}]`
      }
      if (value instanceof RegExp) return `[regexp ${String(value)}]`
      return value
    })
  } catch {
    return undefined
  }
}

/** The names in `properties` and `required` (at any depth) that are not in lower case. */
function upperCaseNames (schema: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) upperCaseNames(item, found)
  } else if (schema !== null && typeof schema === 'object') {
    const { properties, required } = schema as { properties?: unknown, required?: unknown }
    if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) {
      for (const name of Object.keys(properties)) if (name !== name.toLowerCase()) found.add(name)
    }
    if (Array.isArray(required)) {
      for (const name of required) if (typeof name === 'string' && name !== name.toLowerCase()) found.add(name)
    }
    for (const value of Object.values(schema)) upperCaseNames(value, found)
  }
  return found
}

const validatorFactories = new Map<string, CompilerFactory>()

const buildValidator: CompilerFactory = (externalSchemas, options) => {
  const key = keyOf(externalSchemas, options)
  let factory = key === undefined ? undefined : validatorFactories.get(key)
  if (factory === undefined) {
    factory = AjvCompiler()
    if (key !== undefined) validatorFactories.set(key, factory)
  }
  const compile = factory(externalSchemas, options)
  return (route) => {
    if (route.httpPart === 'headers') {
      const names = upperCaseNames(route.schema)
      if (names.size > 0) {
        throw new Error(`the headers schema names ${[...names].join(', ')}: write header names in lower case, as Node.js gives them (config/schema-compilers.ts)`)
      }
    }
    return compile(route)
  }
}

const serializerCaches = new Map<string, WeakMap<object, unknown>>()

const buildSerializer: CompilerFactory = (externalSchemas, options) => {
  const key = keyOf(externalSchemas, options)
  let cache = key === undefined ? undefined : serializerCaches.get(key)
  if (cache === undefined) {
    cache = new WeakMap()
    if (key !== undefined) serializerCaches.set(key, cache)
  }
  const compile = SerializerSelector()(externalSchemas, options)
  return (route) => {
    const schema = route.schema
    // A boolean schema (or any non-object) cannot be a WeakMap key: compiled each time, as by default.
    if (schema === null || typeof schema !== 'object') return compile(route)
    let serializer = cache.get(schema)
    if (serializer === undefined) {
      serializer = compile(route)
      cache.set(schema, serializer)
    }
    return serializer
  }
}

/** The root instance's `schemaController` option (`buildApp` gives it; `options.fastify` may replace it). */
export const sharedSchemaController = {
  compilersFactory: { buildValidator, buildSerializer }
  // Fastify's types for these factories (@fastify/ajv-compiler's) describe Ajv's `compile(schema)`, not the
  // `{ schema, method, url, httpPart }` Fastify passes at run time.
} as unknown as NonNullable<FastifyServerOptions['schemaController']>
