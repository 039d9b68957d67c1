import { bundleMark } from '../../kernel/domain/marks.ts'
import { GUEST_VIEWER } from '../../kernel/domain/catalog.ts'
import type { Viewer } from '../../kernel/domain/catalog.ts'
import { addToCart } from '../../kernel/domain/cart.ts'
import { isAddonAddable } from './recommendations.ts'
import { domainError, fail, ok } from '../../kernel/domain/result.ts'
import type { AdjustableLine, LineAdjustment } from '../../kernel/domain/adjustments.ts'
import { percentOf } from '../../kernel/domain/rounding.ts'
import type { CartData, DomainError, DomainReason, Product, Result } from '../../kernel/domain/types.ts'
import { findVariation, variationChoice } from '../../kernel/domain/variations.ts'
import { completeBundles } from './bundle-solver.ts'

/**
 * Bundles (Pro): the shopper fills every slot of a configured bundle with one of the slot's products, and the lines
 * go into the cart together; the units that form complete bundles are discounted by the bundle's percent, as line
 * adjustments the host applies (`bundleAdjustments`). Pure rules only: the selection, which products a bundle offers,
 * folding the lines into a cart, and the adjustments.
 */

export interface BundleSlot {
  label: string
  product_ids: readonly number[]
}

/** A bundle as the settings hold it (`bundles.bundles[]`). */
export interface BundleDefinition {
  id: string
  title: string
  description: string
  discount_percent: number
  slots: readonly BundleSlot[]
}

/** The mark (`CartLine.mark`) of a bundle's lines: the same bundle added again lands on the same lines. */
export function bundleGroup (bundleId: string): string {
  return bundleMark(bundleId)
}

/**
 * Whether a product may fill a bundle slot right now: a simple product, published, purchasable by anyone (so never
 * private) and in stock; or a published variable product with variations (the shopper then chooses one, checked
 * when added). Catalog visibility does not matter: the shop owner named the product in the bundle, and a product
 * hidden from the catalog (a bundle-only item) can be bought as in WooCommerce.
 */
export function isBundleProductAvailable (product: Product | undefined): product is Product {
  if (product === undefined) return false
  if (product.type === 'variable') return product.status === 'publish' && product.variationIds.length > 0
  return isAddonAddable(product)
}

/** A variable member's chosen variation and the line's attributes (`resolveBundleVariation`). */
export interface BundleVariation {
  product: Product
  variation: Record<string, string>
}

/**
 * The variation a shopper's attribute choice picks for a variable bundle member, checked as the Store API checks an
 * add (`findVariation`, then `variationChoice`: a contradicting value or a missing open one is refused).
 */
export function resolveBundleVariation (parent: Product, variations: readonly Product[], chosen: Record<string, string>): Result<BundleVariation> {
  const found = findVariation(parent, variations, chosen)
  if (!found.ok) return found
  const variation = variationChoice(parent, found.value, chosen)
  if (!variation.ok) return variation
  return ok({ product: found.value, variation: variation.value })
}

/** Every product id the bundles name, once each, in order. */
export function bundleProductIds (bundles: readonly BundleDefinition[]): number[] {
  return [...new Set(bundles.flatMap((bundle) => bundle.slots.flatMap((slot) => slot.product_ids)))]
}

/** A slot as offered: its label and the products that can fill it now, in the configured order. */
export interface OfferedSlot<P> {
  label: string
  products: P[]
}

/**
 * The slots of a bundle with only the products that are available now (`available` gives the product or
 * undefined), or null when some slot is left with none: such a bundle cannot be built and is not offered.
 */
export function offeredSlots<P> (bundle: BundleDefinition, available: (id: number) => P | undefined): Array<OfferedSlot<P>> | null {
  const slots: Array<OfferedSlot<P>> = []
  for (const slot of bundle.slots) {
    const products = slot.product_ids.flatMap((id) => {
      const product = available(id)
      return product === undefined ? [] : [product]
    })
    if (products.length === 0) return null
    slots.push({ label: slot.label, products })
  }
  return slots
}

export interface Companions<P> {
  bundle: BundleDefinition
  /** The slot the product fills (index into `bundle.slots`). */
  slotIndex: number
  /** Every other slot, each with its index and the products that can fill it besides the product itself. */
  others: Array<OfferedSlot<P> & { index: number }>
}

/**
 * The bundles a product can be part of, with what may go with it. A product is placed in the first slot that
 * offers it and leaves every other slot something else to choose (a product fills one slot only); a bundle where
 * no such slot exists, or where the product is not available, is left out. `idOf` names an offered product.
 */
export function companionsOf<P> (
  bundles: readonly BundleDefinition[],
  productId: number,
  available: (id: number) => P | undefined,
  idOf: (product: P) => number
): Array<Companions<P>> {
  const found: Array<Companions<P>> = []
  for (const bundle of bundles) {
    const slots = offeredSlots(bundle, available)
    if (slots === null) continue
    const withoutProduct = slots.map((slot, index) => ({ index, label: slot.label, products: slot.products.filter((product) => idOf(product) !== productId) }))
    const slotIndex = slots.findIndex((slot, index) => slot.products.some((product) => idOf(product) === productId) &&
      withoutProduct.every((other) => other.index === index || other.products.length > 0))
    if (slotIndex === -1) continue
    found.push({ bundle, slotIndex, others: withoutProduct.filter((slot) => slot.index !== slotIndex) })
  }
  return found
}

/** One line of a valid selection: the product chosen for a slot. */
export interface BundleChoice {
  slotIndex: number
  productId: number
}

export interface BundleSelection {
  bundle: BundleDefinition
  /** In slot order. */
  choices: BundleChoice[]
}

const invalid = (reason: DomainReason, message: string, data: Record<string, unknown>) => fail(domainError(reason, message, data))

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`

/**
 * Checks a selection against the bundles on offer: `productIds[i]` fills slot `i`. In order: unknown bundle
 * (`bundle_not_found`), then `bundle_slot_count` (not exactly one product per slot), `bundle_duplicate_product` (a
 * product chosen twice), `bundle_product_not_in_slot` (a product the slot does not offer; every such choice is listed
 * in `data.choices`). Says nothing about stock or status: see `addBundleLines`.
 */
export function validateBundleSelection (bundles: readonly BundleDefinition[], bundleId: string, productIds: readonly number[]): Result<BundleSelection> {
  const bundle = bundles.find((candidate) => candidate.id === bundleId)
  if (bundle === undefined) {
    return fail(domainError('bundle_not_found', `There is no bundle "${bundleId}".`, { bundle_id: bundleId }))
  }
  const slotCount = bundle.slots.length
  if (productIds.length !== slotCount) {
    return invalid('bundle_slot_count',
      `The bundle "${bundle.title}" has ${plural(slotCount, 'slot')}: choose exactly one product for each (${plural(productIds.length, 'product')} given).`,
      { bundle_id: bundle.id, expected: slotCount, received: productIds.length })
  }
  const seen = new Set<number>()
  const duplicates = new Set<number>()
  for (const id of productIds) {
    if (seen.has(id)) duplicates.add(id)
    seen.add(id)
  }
  if (duplicates.size > 0) {
    const list = [...duplicates]
    return invalid('bundle_duplicate_product',
      `${list.length === 1 ? 'Product' : 'Products'} ${list.join(', ')} ${list.length === 1 ? 'is' : 'are'} chosen more than once: each slot needs a different product.`,
      { bundle_id: bundle.id, product_ids: list })
  }
  const misplaced = productIds.flatMap((productId, slotIndex) => {
    const slot = bundle.slots[slotIndex]!
    return slot.product_ids.includes(productId) ? [] : [{ slot: slotIndex, label: slot.label, product_id: productId }]
  })
  if (misplaced.length > 0) {
    const what = misplaced.map((choice) => `product ${choice.product_id} is not an option of slot ${choice.slot + 1} ("${choice.label}")`).join('; ')
    return invalid('bundle_product_not_in_slot', `${what.charAt(0).toUpperCase()}${what.slice(1)}.`, { bundle_id: bundle.id, choices: misplaced })
  }
  return ok({ bundle, choices: productIds.map((productId, slotIndex) => ({ slotIndex, productId })) })
}

/**
 * Adds one of each chosen product to the cart as the bundle's lines (a variable member: the variation `variations`
 * holds for its slot, with the shopper's attributes) (group `bundle:<id>`, the bundle's discount),
 * or nothing: the first product the platform refuses (out of stock, a quantity limit, sold individually and
 * already in the cart…) fails the whole selection with the platform's error, `data.product_id` naming the product.
 * A product that is missing or not available for bundles fails with `bundle_product_unavailable`, listing every
 * such product in `data.product_ids`. The same bundle added again raises its lines' quantities (same group, same
 * keys); a line already there keeps the discount it was added with. `cart` is never changed.
 */
export function addBundleLines (
  cart: CartData,
  selection: BundleSelection,
  products: ReadonlyMap<number, Product>,
  viewer: Viewer = GUEST_VIEWER,
  variations: ReadonlyMap<number, BundleVariation> = new Map()
): Result<CartData> {
  const adds = bundleAdds(selection, products, variations)
  if (!adds.ok) return adds
  let data = cart
  for (const add of adds.value) {
    const product = add.variation === undefined ? products.get(add.id)! : variations.get(add.slotIndex)!.product
    const added = addToCart(data, { product, parent: products.get(add.productId)!, quantity: 1, mark: add.group, ...(add.variation === undefined ? {} : { variation: add.variation }) }, viewer)
    if (!added.ok) return fail(bundleAddRefused(selection, add.productId, added.error))
    data = added.value.cart
  }
  return ok(data)
}

/** One member of a bundle as the cart change that adds it: the product or chosen variation, with the bundle's group. */
export interface BundleAdd {
  /** The slot's product (a variation's parent). */
  productId: number
  slotIndex: number
  /** What is added: the product, or the chosen variation. */
  id: number
  variation?: Record<string, string>
  group: string
}

/**
 * The adds that put a bundle's selection into a cart, one per member in slot order (each quantity 1, the bundle's
 * group): refused whole when a member cannot be sold now or a variable member's options are not chosen. The shop's own
 * rules (stock, quantities) are checked when the adds are applied (`bundleAddRefused` words a refusal).
 */
export function bundleAdds (
  selection: BundleSelection,
  products: ReadonlyMap<number, Product>,
  variations: ReadonlyMap<number, BundleVariation> = new Map()
): Result<BundleAdd[]> {
  const unavailable = selection.choices.filter((choice) => !isBundleProductAvailable(products.get(choice.productId)))
  if (unavailable.length > 0) {
    const names = unavailable.map((choice) => {
      const product = products.get(choice.productId)
      return product === undefined ? `product ${choice.productId}` : `"${product.name}"`
    })
    return fail(domainError('bundle_product_unavailable',
      `${names.join(', ')} cannot be added right now: nothing from the bundle was added.`,
      { bundle_id: selection.bundle.id, product_ids: unavailable.map((choice) => choice.productId) }))
  }
  const group = bundleGroup(selection.bundle.id)
  const adds: BundleAdd[] = []
  for (const { productId, slotIndex } of selection.choices) {
    const parent = products.get(productId)!
    const chosen = variations.get(slotIndex)
    if (parent.type !== 'variable') {
      adds.push({ productId, slotIndex, id: productId, group })
      continue
    }
    if (chosen === undefined) {
      return fail(domainError('variation_attribute_missing', `Choose the options of "${parent.name}": nothing from the bundle was added.`,
        { bundle_id: selection.bundle.id, product_id: productId, slot: slotIndex }))
    }
    adds.push({ productId, slotIndex, id: chosen.product.id, variation: chosen.variation, group })
  }
  return ok(adds)
}

/** A member's add the shop refused, worded for the bundle: nothing from it was added. */
export function bundleAddRefused (selection: BundleSelection, productId: number, error: DomainError): DomainError {
  return { ...error, message: `${error.message} Nothing from the bundle was added.`, data: { ...error.data, bundle_id: selection.bundle.id, product_id: productId } }
}

/**
 * The bundles' discounts as line adjustments: a bundle's lines (group `bundle:<id>`) form as many complete bundles as
 * the slots can all be filled (every unit of a line fills a slot that offers its product, a variation's parent's),
 * and only the units in complete bundles are discounted, by the bundle's percent. So removing a line leaves the rest
 * at full price, lowering one line's quantity discounts only the units still matched, and raising one line's quantity
 * leaves its extra units at full price. Computed on every pricing from the lines as they are: nothing is stored on a
 * line, so no change (a quantity raised, a login merge) can carry a discount to units that form no bundle. Where the
 * complete bundles can be made up in several ways, the lines earlier in the cart fill them first. A group whose bundle
 * is not configured, or has more slots than the settings allow (`MAX_BUNDLE_SLOTS`), gets nothing.
 */
export function bundleAdjustments (lines: readonly AdjustableLine[], bundles: readonly BundleDefinition[]): LineAdjustment[] {
  const adjustments: LineAdjustment[] = []
  for (const bundle of bundles) {
    if (!(bundle.discount_percent > 0)) continue
    const group = bundleGroup(bundle.id)
    const members = lines.filter((line) => line.mark === group)
    if (members.length === 0) continue
    const filled = completeUnits(bundle, members)
    for (const line of members) {
      const units = filled.get(line.key) ?? 0
      const amount = percentOf(line.unitPrice * units, bundle.discount_percent)
      if (amount > 0) adjustments.push({ lineKey: line.key, amount, label: bundle.title, rule: group })
    }
  }
  return adjustments
}

/** Units of each line that fill complete bundles (`completeBundles`: their count does not change the work). */
function completeUnits (bundle: BundleDefinition, lines: readonly AdjustableLine[]): Map<string, number> {
  const offers = lines.map((line) => bundle.slots.flatMap((slot, index) => slot.product_ids.includes(line.productId) ? [index] : []))
  const { units } = completeBundles(lines.map((line) => line.quantity), offers, bundle.slots.length)
  return new Map(units.map((count, i) => [lines[i]!.key, count]))
}
