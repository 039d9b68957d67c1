import type { FastifyInstance } from 'fastify'
import {
  bundleAddRefused, bundleAdds, bundleProductIds, companionsOf, isBundleProductAvailable, offeredSlots, resolveBundleVariation, validateBundleSelection, type BundleDefinition, type BundleVariation
} from '../../domain/bundles.ts'
import type { Product } from '../../../kernel/domain/types.ts'
import { restError, svcError } from '../../../kernel/errors/index.ts'
import { CartActionError } from '../../../kernel/domain/cart-action-error.ts'
import type { CartChange, CartState, Viewer } from '../../port/index.ts'
import { productCard } from '../svc-free/index.ts'

type ProductCard = ReturnType<typeof productCard>

/** A variable member's attribute choice in `bundle-builder/add`: the slot it fills and the attributes. */
export interface BundleVariationChoice {
  slot: number
  attributes: ReadonlyArray<{ attribute: string, value: string }>
}

/**
 * The bundle builder: bundle definitions from the settings, offered with the products that can fill their slots
 * now, and added to a cart in one transaction. Bundle lines are ordinary lines for the shopper (not locked) that
 * carry the bundle's mark; their discount is not stored but computed on every pricing as line adjustments
 * (drawer/domain/bundles.ts `bundleAdjustments`, through the rewards plugin's `lineAdjuster`), so it applies only to the
 * units that form complete bundles as the cart stands.
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
  async add (cartKey: string, bundleId: string, productIds: readonly number[], viewer: Viewer, choices: readonly BundleVariationChoice[] = []): Promise<CartState> {
    const selection = validateBundleSelection(await this.#configured(), bundleId, productIds)
    if (!selection.ok) throw svcError(selection.error)
    const products: Map<number, Product> = await this.#fastify.commerce.getProducts(productIds)
    const variations = await this.#variations(products, productIds, choices)
    const adds = bundleAdds(selection.value, products, variations)
    if (!adds.ok) throw new CartActionError(adds.error)
    const changes: CartChange[] = adds.value.map(({ id, variation, group }) => ({ type: 'add', id, quantity: 1, mark: group, ...(variation === undefined ? {} : { variation }) }))
    try {
      return await this.#fastify.commerce.carts.change(cartKey, changes, viewer, { service: true })
    } catch (error) {
      const refused = error instanceof CartActionError ? adds.value[error.changeIndex ?? -1] : undefined
      if (refused === undefined) throw error
      throw new CartActionError(bundleAddRefused(selection.value, refused.productId, (error as CartActionError).domainError))
    }
  }

  /** The variation each variable member's attributes choose (by slot), checked as the Store API checks an add. */
  async #variations (products: ReadonlyMap<number, Product>, productIds: readonly number[], choices: readonly BundleVariationChoice[]): Promise<Map<number, BundleVariation>> {
    const chosen = new Map<number, Record<string, string>>()
    for (const choice of choices) {
      const parent = products.get(productIds[choice.slot] ?? 0)
      if (choice.slot >= productIds.length || parent?.type !== 'variable') {
        throw restError('svc_invalid_params', `Slot ${choice.slot} is not filled with a variable product: it takes no attributes.`, { params: { variations: `slot ${choice.slot} takes no attributes` } })
      }
      chosen.set(choice.slot, Object.fromEntries(choice.attributes.map(({ attribute, value }) => [attribute, value])))
    }
    const resolved = new Map<number, BundleVariation>()
    const parents = productIds.map((id, slot) => ({ slot, parent: products.get(id) })).filter(({ parent }) => parent?.type === 'variable')
    if (parents.length === 0) return resolved
    const all = await this.#fastify.commerce.getProducts(parents.flatMap(({ parent }) => parent!.variationIds))
    for (const { slot, parent } of parents) {
      const result = resolveBundleVariation(parent!, parent!.variationIds.flatMap((id) => all.get(id) ?? []), chosen.get(slot) ?? {})
      if (!result.ok) throw new CartActionError({ ...result.error, data: { ...result.error.data, product_id: parent!.id, slot } })
      resolved.set(slot, result.value)
    }
    return resolved
  }
}
