import type { FastifySchemaValidationError } from 'fastify'
import type { TSchema } from 'typebox'
import { RestError } from '../../../kernel/errors/index.ts'

/**
 * A request parameter that fails its schema, answered as WordPress does: 400 `rest_invalid_param` naming each bad
 * parameter in `data.params` (the product routes validate with `attachValidation` and throw this).
 */
export function invalidParams (issues: { validation?: FastifySchemaValidationError[] } | Error): RestError {
  const params: Record<string, string> = {}
  for (const issue of (issues as { validation?: FastifySchemaValidationError[] }).validation ?? []) {
    const missing = (issue.params as { missingProperty?: unknown } | undefined)?.missingProperty
    const path = (issue.instancePath ?? '').replace(/^\//, '').split('/')[0] ?? ''
    const field = typeof missing === 'string' ? missing : path || 'request'
    params[field] ??= `${field} ${issue.message ?? 'is invalid'}.`
  }
  const names = Object.keys(params)
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, 400, { params })
}

/** Removes TypeBox's symbol keys and Fastify-only keywords: a plain JSON Schema. */
function plain (schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema ?? null))
}

/**
 * What WordPress answers to OPTIONS on a REST route: the namespace, the methods, each endpoint's arguments and the
 * item schema (draft-04, titled as WooCommerce titles it).
 */
export function routeOptions (route: string, args: Record<string, unknown>, itemSchema: TSchema & { properties?: unknown }, title: string) {
  return {
    namespace: 'wc/store/v1',
    methods: ['GET'],
    endpoints: [{ methods: ['GET'], args: plain(args) as Record<string, unknown> }],
    schema: {
      $schema: 'http://json-schema.org/draft-04/schema#',
      title,
      type: 'object',
      properties: plain(itemSchema.properties),
      route
    }
  }
}

/** The body limit of a route that takes no body (DELETE): room for a client that sends `{}` or a little more. */
export const NO_BODY = 1024
