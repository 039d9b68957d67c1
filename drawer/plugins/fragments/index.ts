import fp from 'fastify-plugin'
import { jsonScriptElement, jsonTextScriptElement } from '../../../kernel/domain/json-script.ts'
import { isPlainObject } from '../../../kernel/lib/index.ts'

/** The one fragment the service adds (specification §2.2), and the class of its element. */
export const SVC_FRAGMENT_KEY = '.svc-cart-json'
export const SVC_FRAGMENT_CLASS = 'svc-cart-json'

/**
 * Priority of the service's `woocommerce_add_to_cart_fragments` callback: late (callbacks at the default 10 run
 * first), so it sees the fragments other extensions added and can leave them untouched when one is not a string.
 */
export const SVC_FRAGMENT_PRIORITY = 1000

export interface FragmentsPluginOptions {
  /** Default `SVC_FRAGMENT_PRIORITY`. */
  priority?: number
}

/**
 * The `.svc-cart-json` fragment on classic add-to-cart and fragment-refresh responses (the platform's fragments
 * filter; WooCommerce's remove-from-cart answers through it too): the drawer's cart state as JSON in a
 * `<script type="application/json">` element, escaped as design §3.8 says. Added only while the `enabled` setting
 * is on, and not at all when another extension has put a non-string value into the fragments.
 */
export const fragmentsPlugin = fp<FragmentsPluginOptions>(async (fastify, options) => {
  const { commerce: shop, drawerCart, settings } = fastify
  const remove = shop.filters.add('woocommerce_add_to_cart_fragments', async (fragments, state) => {
    if (!isPlainObject(fragments)) return fragments
    if (Object.values(fragments).some((value) => typeof value !== 'string')) return fragments
    if (!(await settings.at(state.settingsVersion)).settings.enabled) return fragments
    // The drawer's state as the write rendered it, when it did (its snapshot): not rendered again.
    const element = state.snapshot !== undefined
      ? jsonTextScriptElement(state.snapshot, SVC_FRAGMENT_CLASS)
      : jsonScriptElement(await drawerCart.state(state), SVC_FRAGMENT_CLASS)
    return { ...fragments, [SVC_FRAGMENT_KEY]: element }
  }, options.priority ?? SVC_FRAGMENT_PRIORITY)
  fastify.addHook('onClose', async () => { remove() })
}, { name: 'fragments', fastify: '5.x', dependencies: ['commerce', 'settings', 'store-api-extension'] })
