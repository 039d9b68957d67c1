import fp from 'fastify-plugin'
import type { AnalyticsStore, SettingsStore } from '../../storage/types.ts'
import type { CommercePort } from './commerce-port.ts'

export interface DrawerStores {
  /** The drawer's settings document. */
  settings: SettingsStore
  /** The Pro edition's analytics events. */
  analytics: AnalyticsStore
}

export interface CommercePluginOptions {
  commerce: CommercePort
  stores: DrawerStores
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The shop, as the drawer sees it (the commerce port). */
    commerce: CommercePort
    /** Where the drawer keeps its own data. */
    drawerStores: DrawerStores
  }
}

/** Decorates the instance with the commerce port and the drawer's stores: every drawer plugin depends on it. */
export const commercePlugin = fp<CommercePluginOptions>(async (fastify, options) => {
  fastify.decorate('commerce', options.commerce)
  fastify.decorate('drawerStores', options.stores)
}, { name: 'commerce', fastify: '5.x' })
