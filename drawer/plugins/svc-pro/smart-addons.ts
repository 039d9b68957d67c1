import type { FastifyInstance } from 'fastify'
import type { ConditionGroup } from '../../domain/conditions/index.ts'
import { isAddonAddable } from '../../domain/recommendations.ts'
import type { CartData, Product } from '../../../kernel/domain/types.ts'
import { restError } from '../../../kernel/errors/index.ts'
import type { CartFollowUp, CartState, Viewer } from '../../port/index.ts'
import { productCard } from '../svc-free/index.ts'
import { ADDON_GROUP_PREFIX, conditionsHold } from './visitor.ts'

interface AddonSettings {
  id: string
  product_id: number
  label: string
  description: string
  conditions: ConditionGroup
}

const groupOf = (id: string) => `${ADDON_GROUP_PREFIX}${id}`

/** The add-on lines of a cart's data: the service adds and removes them; the shopper only toggles them. */
export function addonLineKeys (data: CartData): ReadonlySet<string> {
  return new Set(data.lines.filter((line) => line.mark?.startsWith(ADDON_GROUP_PREFIX)).map((line) => line.key))
}

/** Smart add-ons: configured products offered while their conditions hold, added and removed as locked lines. */
export class SmartAddons {
  readonly #fastify: FastifyInstance

  constructor (fastify: FastifyInstance) {
    this.#fastify = fastify
  }

  async #configured (): Promise<AddonSettings[]> {
    const { settings } = await this.#fastify.settings.get()
    return settings.smart_addons.enabled ? settings.smart_addons.addons as AddonSettings[] : []
  }

  /** The add-ons whose conditions hold for this cart and visitor, with whether each is in the cart. */
  async list (state: CartState, viewer: Viewer) {
    const addons = await this.#configured()
    const now = this.#fastify.commerce.now()
    const eligible = addons.filter((addon) => conditionsHold(addon.conditions, state.priced, viewer, now))
    if (eligible.length === 0) return []
    const products = await this.#fastify.commerce.getProducts(eligible.map((addon) => addon.product_id))
    return eligible.flatMap((addon) => {
      const product = products.get(addon.product_id)
      if (product === undefined || !isAddonAddable(product)) return []
      const line = state.priced.lines.find((priced) => priced.line.mark === groupOf(addon.id))
      return [{
        id: addon.id,
        label: addon.label,
        description: addon.description,
        product: productCard(product, this.#fastify),
        active: line !== undefined,
        key: line?.line.key ?? null
      }]
    })
  }

  /** Adds or removes an add-on's line in one transaction; adding needs the add-on's conditions to hold. */
  async toggle (state: CartState, addonId: string, active: boolean, viewer: Viewer): Promise<CartState> {
    const shop = this.#fastify.commerce
    const { carts } = shop
    const group = groupOf(addonId)
    if (!active) {
      // An add-on neither configured nor in the cart is unknown (404), as when adding; a line left by an add-on taken
      // out of the settings can still be toggled off.
      const inCart = state.stored?.data.lines.some((line) => line.mark === group) ?? false
      if (!inCart && !(await this.#configured()).some((candidate) => candidate.id === addonId)) throw restError('svc_addon_not_found')
      return carts.change(state.key, [{ type: 'removeMarked', mark: group }], viewer, { service: true })
    }
    const addon = (await this.#configured()).find((candidate) => candidate.id === addonId)
    if (addon === undefined) throw restError('svc_addon_not_found')
    if (!conditionsHold(addon.conditions, state.priced, viewer, shop.now())) throw restError('svc_addon_unavailable')
    const product: Product | null = await shop.getProduct(addon.product_id)
    if (product === null || !isAddonAddable(product)) throw restError('svc_addon_unavailable', 'The add-on\'s product cannot be added right now.')
    return carts.change(state.key, [{ type: 'add', id: product.id, quantity: 1, mark: group, ifAbsent: true }], viewer, { service: true })
  }

  /**
   * After a cart change (the commerce port's `reconcile` hook): the add-on lines that must go, as a follow-up the host
   * applies (unknown or disabled add-ons, and conditions that stopped holding); null when none. Reads only.
   */
  async reconcile (state: CartState, viewer: Viewer): Promise<CartFollowUp | null> {
    const lines = state.priced.lines.filter((priced) => priced.line.mark?.startsWith(ADDON_GROUP_PREFIX))
    if (lines.length === 0) return null
    const addons = new Map((await this.#configured()).map((addon) => [groupOf(addon.id), addon]))
    const now = this.#fastify.commerce.now()
    const remove = new Set(lines.filter(({ line }) => {
      const addon = addons.get(line.mark!)
      return addon === undefined || !conditionsHold(addon.conditions, state.priced, viewer, now)
    }).map(({ line }) => line.key))
    return remove.size === 0 ? null : { remove }
  }
}
