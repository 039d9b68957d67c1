import type { FastifyPluginAsync, FastifySchemaCompiler } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import {
  AnalyticsAcceptedSchema, AnalyticsEventsBody, AnalyticsResetSchema, AnalyticsSummaryQuery, AnalyticsSummarySchema
} from '../../schemas/svc-pro-analytics.ts'
import { adminErrors } from '../../schemas/svc-pro.ts'
import { cartErrors } from '../../schemas/svc-free.ts'
import { BODY_LIMITS, perHour, perMinute } from '../security/index.ts'
import { cartKeyOf } from '../svc-free/index.ts'
import { DrawerAnalytics, summaryRange } from './analytics.ts'

const tags = ['svc']

interface ValidationIssue {
  instancePath: string
  message: string
  params: Record<string, unknown>
}

/**
 * Checks a body with TypeBox's compiler instead of Fastify's Ajv. Ajv runs with `coerceTypes`, which would store
 * `"100"` as 100 and, in the union of `data` values, `true` and `2` as the strings `"true"` and `"2"` (the first
 * branch that can take them). The drawer's batches are untrusted input: they are checked exactly as the TypeBox
 * schema says, nothing converted. Errors keep Ajv's shape (`missingProperty` for each missing field), so the
 * service's 400 names every field as for the other routes.
 */
export const exactBodyCompiler: FastifySchemaCompiler<TSchema> = ({ schema }) => {
  const check = Compile(schema)
  return (value) => {
    if (check.Check(value)) return { value }
    const issues: ValidationIssue[] = []
    for (const issue of check.Errors(value) as Iterable<ValidationIssue>) {
      const missing = issue.params.requiredProperties
      if (Array.isArray(missing)) {
        for (const name of missing) issues.push({ ...issue, message: `must have required property '${String(name)}'`, params: { missingProperty: name } })
      } else {
        issues.push(issue)
      }
    }
    return { error: issues as unknown as Error }
  }
}

/** `analytics/events` (the drawer's batches), `analytics/summary` and `analytics/reset` (admin). */
export const proAnalyticsRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const analytics = new DrawerAnalytics(fastify)

  app.post('/analytics/events', {
    config: { svc: { edition: 'pro', access: 'cart', rateLimit: perMinute(60) } },
    bodyLimit: BODY_LIMITS.analyticsEvents,
    validatorCompiler: exactBodyCompiler,
    schema: {
      tags,
      operationId: 'svcRecordAnalyticsEvents',
      summary: 'Record drawer events',
      description: 'A batch of 1 to 50 events, stored together with the visitor as a keyed hash of the cart (never the cart key or an IP address). While analytics are off in the settings, nothing is stored and `accepted` is 0.',
      body: AnalyticsEventsBody,
      response: { 202: AnalyticsAcceptedSchema, ...cartErrors }
    }
  }, async (request, reply) => {
    const accepted = await analytics.record(cartKeyOf(request), request.body.events)
    return reply.code(202).send({ accepted })
  })

  app.get('/analytics/summary', {
    config: { svc: { edition: 'pro', access: 'admin' } },
    schema: {
      tags,
      operationId: 'svcGetAnalyticsSummary',
      summary: 'Drawer analytics over a range of days',
      description: 'Counted by the database. Days are UTC and both ends are included; default the last 30 days; at most 366 days. Events past the retention period are deleted first.',
      querystring: AnalyticsSummaryQuery,
      response: { 200: AnalyticsSummarySchema, ...adminErrors }
    }
  }, async (request) => analytics.summary(summaryRange(request.query, fastify.commerce.now())))

  app.delete('/analytics/reset', {
    config: { svc: { edition: 'pro', access: 'admin', rateLimit: perHour(5) } },
    schema: { tags, operationId: 'svcResetAnalytics', summary: 'Delete every recorded event', response: { 200: AnalyticsResetSchema, ...adminErrors } }
  }, async () => ({ deleted: await analytics.reset() }))
}
