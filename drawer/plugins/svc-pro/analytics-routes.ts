import type { FastifyPluginAsync, FastifySchemaCompiler } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import {
  AnalyticsAcceptedSchema, AnalyticsCsvSchema, AnalyticsEventsBody, AnalyticsExportQuery, AnalyticsResetSchema, AnalyticsSummaryQuery,
  AnalyticsSummarySchema
} from '../../schemas/svc-pro-analytics.ts'
import { adminErrors } from '../../schemas/svc-pro.ts'
import { cartErrors } from '../../schemas/svc-free.ts'
import { BODY_LIMITS, perHour, perMinute } from '../security/index.ts'
import { cartKeyOf } from '../svc-free/index.ts'
import { DrawerAnalytics, scheduleRetentionSweep, summaryRange } from './analytics.ts'

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

/**
 * `analytics/events` (the drawer's batches), `analytics/summary`, `analytics/export` and `analytics/reset` (admin);
 * the checkout's orders recorded for the conversion, and the retention sweep.
 */
export const proAnalyticsRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const analytics = new DrawerAnalytics(fastify)
  const removeOrderAction = fastify.commerce.filters.add('woocommerce_store_api_checkout_order_processed', async (value, { cartKey }) => {
    await analytics.recordOrder(cartKey)
    return value
  })
  fastify.addHook('onClose', async () => { removeOrderAction() })
  scheduleRetentionSweep(fastify, analytics)

  app.post('/analytics/events', {
    config: { svc: { edition: 'pro', access: 'cart', rateLimit: perMinute(60), changesCart: false } },
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

  app.get('/analytics/export', {
    config: { svc: { edition: 'pro', access: 'admin' } },
    schema: {
      tags,
      operationId: 'svcExportAnalytics',
      summary: 'Download the analytics of a range of days as CSV',
      description: 'The days and figures of `analytics/summary` (same range rules) as a spreadsheet file (`text/csv`, a download): ' +
        '`report=days` a row per day, `report=products` a row per product of drawer lines.',
      querystring: AnalyticsExportQuery,
      response: { 200: { description: 'The CSV file.', content: { 'text/csv': { schema: AnalyticsCsvSchema } } }, ...adminErrors }
    }
  }, async (request, reply) => {
    const range = summaryRange(request.query, fastify.commerce.now())
    const report = request.query.report ?? 'days'
    const csv = await analytics.exportCsv(range, report)
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="drawer-analytics-${report}-${range.from}-to-${range.to}.csv"`)
      // A byte-order mark: spreadsheets then read the file as UTF-8 (product names in any script).
      .send(`\uFEFF${csv}`)
  })

  app.delete('/analytics/reset', {
    config: { svc: { edition: 'pro', access: 'admin', rateLimit: perHour(5) } },
    schema: { tags, operationId: 'svcResetAnalytics', summary: 'Delete every recorded event', response: { 200: AnalyticsResetSchema, ...adminErrors } }
  }, async () => ({ deleted: await analytics.reset() }))
}
