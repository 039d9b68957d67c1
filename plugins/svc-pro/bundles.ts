import type { FastifyInstance } from 'fastify'
import {
  addBundleLines, bundleProductIds, companionsOf, isBundleProductAvailable, offeredSlots, validateBundleSelection,
  type BundleDefinition
} from '../../domain/bundles.ts'
import type { Product } from '../../domain/types.ts'
import { restError, svcError } from '../../errors/index.ts'
import { CartActionError } from '../../domain/cart-action-error.ts'
import type { CartState, Viewer } from '../cart-drawer/index.ts'
import { productCard } from '../svc-free/index.ts'

type ProductCard = ReturnType<typeof productCard>

/**
 * The bundle builder: bundle definitions from the settings, offered with the products that can fill their slots
 * now, and added to a cart as discounted lines in one transaction. Bundle lines are ordinary lines for the shopper
 * (not locked): they keep their discount when the shopper changes or removes other lines of the bundle.
 */
export class BundleBuilder {
  readonly #fastify: FastifyInstance

  constructor (fastify: FastifyInstance) {
    this.#fastify = fastify
  }

  /** The enabled bundle definitions (none while the section is disabled). */
  async #configured (): Promise<BundleDefinition[]> {
    const { settings } = await this.#fastify.settings.get()
    return settings.bundles.enabled ? settings.bundles.bundles : []
  }

  /** Every product the bundles name, read at once, as the cards of those available now. */
  async #availableCards (bundles: readonly BundleDefinition[]): Promise<Map<number, ProductCard>> {
    const ids = bundleProductIds(bundles)
    if (ids.length === 0) return new Map()
    const products = await this.#fastify.commerce.getProducts(ids)
    const cards = new Map<number, ProductCard>()
    for (const id of ids) {
      const product = products.get(id)
      if (isBundleProductAvailable(product)) cards.set(id, productCard(product, this.#fastify))
    }
    return cards
  }

  /** `GET bundle-builder/configs`: the bundles that can be built now, with their slots' products. */
  async configs () {
    const bundles = await this.#configured()
    const cards = await this.#availableCards(bundles)
    return bundles.flatMap((bundle) => {
      const slots = offeredSlots(bundle, (id) => cards.get(id))
      if (slots === null) return []
      return [{ id: bundle.id, title: bundle.title, description: bundle.description, discount_percent: bundle.discount_percent, slots }]
    })
  }

  /**
   * `GET bundle-builder/companions`: the bundles the product can be part of, with the other slots' products. A
   * product that does not exist, or that the visitor may not see (a draft; a private product for a shopper), is a
   * 404; a product in no bundle (or unavailable now) has none.
   */
  async companions (productId: number, viewer: Viewer) {
    const [bundles, product] = await Promise.all([this.#configured(), this.#fastify.commerce.getProduct(productId)])
    const visible = product !== null && (product.status === 'publish' || (product.status === 'private' && viewer.canReadPrivate))
    if (!visible) throw restError('svc_product_not_found', undefined, { product_id: productId })
    const containing = bundles.filter((bundle) => bundle.slots.some((slot) => slot.product_ids.includes(productId)))
    const cards = await this.#availableCards(containing)
    return companionsOf(containing, productId, (id) => cards.get(id), (card) => card.id).map(({ bundle, slotIndex, others }) => ({
      id: bundle.id,
      title: bundle.title,
      description: bundle.description,
      discount_percent: bundle.discount_percent,
      slot_count: bundle.slots.length,
      slot_index: slotIndex,
      slot_label: bundle.slots[slotIndex]!.label,
      companion_slots: others
    }))
  }

  /**
   * `POST bundle-builder/add`: checks the selection, then adds every line in one transaction, or none. The products
   * are read before the cart's write lock (a storage call inside it would wait on the lock).
   */
  async add (cartKey: string, bundleId: string, productIds: readonly number[], viewer: Viewer): Promise<CartState> {
    const selection = validateBundleSelection(await this.#configured(), bundleId, productIds)
    if (!selection.ok) throw svcError(selection.error)
    const products: Map<number, Product> = await this.#fastify.commerce.getProducts(productIds)
    return this.#fastify.commerce.carts.changeAsService(cartKey, viewer, (data) => {
      const added = addBundleLines(data, selection.value, products, viewer)
      if (!added.ok) throw new CartActionError(added.error)
      return added.value
    })
  }
}
