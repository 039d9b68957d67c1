import fp from 'fastify-plugin'
import type { DrawerStores } from '../../stores/index.ts'
import { resolveCommercePort, type CommercePort, type ResolvedCommercePort } from '../../port/index.ts'

export type { DrawerStores }

export interface CommercePluginOptions {
  commerce: CommercePort
  stores: DrawerStores
  /** Signing secrets (each at least 32 bytes), newest first: the drawer keys its own hashes with the first. */
  secrets: readonly string[]
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The shop, as the drawer sees it: the host's commerce port with the defaults of the members it left out. */
    commerce: ResolvedCommercePort
    /** Where the drawer keeps its own data. */
    drawerStores: DrawerStores
    /** The drawer's signing secrets, newest first. */
    drawerSecrets: readonly string[]
  }
}

/** Decorates the instance with the commerce port and the drawer's stores: every drawer plugin depends on it. */
export const commercePlugin = fp<CommercePluginOptions>(async (fastify, options) => {
  if (options.secrets.length === 0 || options.secrets.some((secret) => Buffer.byteLength(secret) < 32)) {
    throw new Error('cartDrawer: secrets must hold at least one secret of at least 32 bytes')
  }
  fastify.decorate('commerce', resolveCommercePort(options.commerce, { secrets: options.secrets }))
  fastify.decorate('drawerStores', options.stores)
  fastify.decorate('drawerSecrets', [...options.secrets])
}, { name: 'commerce', fastify: '5.x' })
