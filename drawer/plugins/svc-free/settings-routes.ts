import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { restError } from '../../../kernel/errors/index.ts'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import {
  SaveSettingsBody, SETTINGS_EXPORT_FORMAT, SETTINGS_SCHEMA_VERSION, SettingsConflictBody, SettingsExportSchema,
  SettingsImportBody, SettingsResponse
} from '../../schemas/svc-free.ts'
import type { SettingsWriteResult, VersionedSettings } from '../settings/index.ts'
import { BODY_LIMITS, perHour, perMinute } from '../security/index.ts'

const tags = ['svc']
const adminErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 503: ErrorBody } as const

function written (result: SettingsWriteResult, invalid: 'svc_invalid_params' | 'svc_settings_import_invalid'): VersionedSettings {
  if (result.ok) return { settings: result.settings, version: result.version }
  if (result.reason === 'conflict') throw restError('svc_settings_conflict', undefined, { version: result.version })
  const fields = Object.keys(result.problems)
  throw restError(invalid, `Invalid settings: ${fields.join(', ')}.`, { params: result.problems })
}

/** The admin screens' settings routes: read, partial save, reset, export and import. */
export const settingsRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const settings = fastify.settings

  app.get('/settings', {
    config: { svc: { edition: 'free', access: 'admin' } },
    schema: { tags, operationId: 'svcGetSettings', summary: 'The settings and their version', response: { 200: SettingsResponse, ...adminErrors } }
  }, async () => settings.get())

  app.post('/settings', {
    config: { svc: { edition: 'free', access: 'admin', rateLimit: perMinute(30) } },
    bodyLimit: BODY_LIMITS.settings,
    schema: {
      tags,
      operationId: 'svcSaveSettings',
      summary: 'Change part of the settings',
      description: '`settings` is deep-merged into the current document, which must then be valid as a whole (400 lists every problem in `data.params`). With `version`, a save based on an older version is refused (409 `svc_settings_conflict`).',
      body: SaveSettingsBody,
      response: { 200: SettingsResponse, 409: SettingsConflictBody, ...adminErrors }
    }
  }, async (request) => written(await settings.save(request.body.settings, request.body.version), 'svc_invalid_params'))

  app.delete('/settings', {
    config: { svc: { edition: 'free', access: 'admin', rateLimit: perHour(5) } },
    schema: { tags, operationId: 'svcResetSettings', summary: 'Restore the default settings', response: { 200: SettingsResponse, ...adminErrors } }
  }, async () => settings.reset())

  app.get('/settings/export', {
    config: { svc: { edition: 'free', access: 'admin' } },
    schema: { tags, operationId: 'svcExportSettings', summary: 'Download the settings as a file', response: { 200: SettingsExportSchema, ...adminErrors } }
  }, async (_request, reply) => {
    const { settings: current } = await settings.get()
    const exportedAt = new Date().toISOString()
    reply.header('Content-Disposition', `attachment; filename="svc-settings-${exportedAt.slice(0, 10)}.json"`)
    return { format: SETTINGS_EXPORT_FORMAT, schema_version: SETTINGS_SCHEMA_VERSION, exported_at: exportedAt, settings: current } as const
  })

  app.post('/settings/import', {
    config: { svc: { edition: 'free', access: 'admin', rateLimit: perHour(5) } },
    bodyLimit: BODY_LIMITS.settingsImport,
    schema: {
      tags,
      operationId: 'svcImportSettings',
      summary: 'Replace the settings with an exported file',
      description: 'The whole document is checked first: an invalid file changes nothing and every problem is listed in `data.params`.',
      body: SettingsImportBody,
      response: { 200: SettingsResponse, ...adminErrors }
    }
  }, async (request) => {
    const file = request.body as Record<string, unknown>
    const problems: Record<string, string> = {}
    if (file.format !== SETTINGS_EXPORT_FORMAT) problems.format = `must be "${SETTINGS_EXPORT_FORMAT}"`
    if (file.schema_version !== SETTINGS_SCHEMA_VERSION) problems.schema_version = `must be ${SETTINGS_SCHEMA_VERSION}`
    const isObject = typeof file.settings === 'object' && file.settings !== null && !Array.isArray(file.settings)
    if (!isObject) problems.settings = 'must be an object'
    else for (const [path, message] of Object.entries(settings.validate(file.settings))) problems[`settings.${path}`] = message
    if (Object.keys(problems).length > 0) {
      throw restError('svc_settings_import_invalid', `Invalid settings file: ${Object.keys(problems).join(', ')}.`, { params: problems })
    }
    return written(await settings.replace(file.settings), 'svc_settings_import_invalid')
  })
}
