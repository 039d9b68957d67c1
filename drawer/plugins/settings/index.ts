import fp from 'fastify-plugin'
import type { SettingsStore } from '../../../storage/contract/index.ts'
import { SettingsService } from './settings-service.ts'

export interface SettingsPluginOptions {
  /** Where the document lives. Default: the drawer's settings store (`fastify.drawerStores`). */
  storage?: SettingsStore
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The cart drawer service's settings document (read from storage on every `get`). */
    settings: SettingsService
  }
}

/** Decorates `fastify.settings`: the settings service. Routes for it are the `svc/v1/settings…` routes elsewhere. */
export const settingsPlugin = fp<SettingsPluginOptions>(async (fastify, options) => {
  const storage = options.storage ?? (fastify.hasDecorator('drawerStores') ? fastify.drawerStores.settings : undefined)
  if (storage === undefined) throw new Error('settings plugin: pass `storage`, or register the commerce plugin first')
  fastify.decorate('settings', new SettingsService(storage, {
    onStoredProblems: (problems, version) => {
      fastify.log.warn({ problems, version }, 'stored settings have invalid values; their defaults are used until the settings are saved again')
    }
  }))
}, { name: 'settings', fastify: '5.x' })

export { SettingsService, type SettingsCheck, type SettingsWriteResult, type VersionedSettings, type SettingsServiceOptions } from './settings-service.ts'
export { settingsProblems, deepMerge, defaultSettings, type SettingsProblems } from './document.ts'
