import { domainError, fail, ok } from './result.ts'
import type { Product, ProductAttribute, Result } from './types.ts'

/** `Attribute_PA_Color` and `pa_color` name the same attribute. */
function attributeKey (name: string): string {
  return name.trim().toLowerCase().replace(/^attribute_/, '')
}

function sameValue (a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase()
}

function lookupChoice (attribute: ProductAttribute, chosen: Record<string, string>): string | undefined {
  const byName = attributeKey(attribute.name)
  const byLabel = attribute.label.trim().toLowerCase()
  let byLabelValue: string | undefined
  for (const [key, value] of Object.entries(chosen)) {
    const k = attributeKey(key)
    if (k === byName) return value
    if (k === byLabel && byLabelValue === undefined) byLabelValue = value
  }
  return byLabelValue
}

/**
 * Checks a shopper's attribute choice against a variable product's attributes and returns it in canonical form:
 * keyed by the parent's attribute `name`, each value spelled as in the attribute's options. Keys are matched
 * case-insensitively, with or without the `attribute_` prefix (the attribute's label is accepted too); unknown keys
 * are ignored. Every attribute needs a value; an attribute without options accepts any non-empty value.
 */
export function normaliseVariationChoice (parent: Product, chosen: Record<string, string>): Result<Record<string, string>> {
  const result: Record<string, string> = {}
  for (const attribute of parent.attributes) {
    const label = attribute.label !== '' ? attribute.label : attribute.name
    const value = lookupChoice(attribute, chosen)?.trim() ?? ''
    if (value === '') {
      return fail(domainError('variation_attribute_missing',
        `Missing variation data for variable product. ${label} is a required field.`, { attribute: attribute.name }))
    }
    if (attribute.options.length === 0) {
      result[attribute.name] = value
      continue
    }
    const option = attribute.options.find((o) => sameValue(o, value))
    if (option === undefined) {
      return fail(domainError('variation_attribute_invalid',
        `Invalid value posted for ${label}. Allowed values: ${attribute.options.join(', ')}`,
        { attribute: attribute.name, value }))
    }
    result[attribute.name] = option
  }
  return ok(result)
}

/** How many attributes the variation fixes to the chosen value, or -1 when it does not match the choice. */
function matchScore (variation: Product, choice: Record<string, string>): number {
  const byKey = new Map(Object.entries(choice).map(([k, v]) => [attributeKey(k), v]))
  let score = 0
  for (const [key, value] of Object.entries(variation.variationAttributes)) {
    if (value.trim() === '') continue
    const picked = byKey.get(attributeKey(key))
    if (picked === undefined || !sameValue(picked, value)) return -1
    score++
  }
  return score
}

/**
 * The variation of `parent` standing for the shopper's choice: every non-empty attribute of the variation equals
 * the chosen value ('' in a variation means any value). When several match, the most specific (fewest "any"
 * attributes) wins, then the first in `variations`. Only variations whose `parentId` is the parent's are considered.
 *
 * Reasons: `variation_attribute_missing` / `variation_attribute_invalid` for a missing or invalid attribute value
 * (the message names the attribute), `variation_not_found` when no variation matches (as WooCommerce),
 * `product_not_purchasable` when the parent is not a variable product.
 */
export function findVariation (parent: Product, variations: readonly Product[], chosen: Record<string, string>): Result<Product> {
  if (parent.type !== 'variable') {
    return fail(domainError('product_not_purchasable', 'This product cannot be added to the cart.'))
  }
  const choice = normaliseVariationChoice(parent, chosen)
  if (!choice.ok) return choice
  let best: Product | undefined
  let bestScore = -1
  for (const variation of variations) {
    if (variation.type !== 'variation' || variation.parentId !== parent.id) continue
    const score = matchScore(variation, choice.value)
    if (score > bestScore) {
      best = variation
      bestScore = score
    }
  }
  if (best === undefined) {
    return fail(domainError('variation_not_found', 'No matching variation found.'))
  }
  return ok(best)
}

/**
 * The attributes a cart line of `variation` carries, keyed by the parent's attribute names and spelled as its
 * options: the variation's own values, and for each attribute it leaves open ("any") the shopper's choice, which must
 * then be one of the attribute's options. A chosen value that contradicts the variation's own is refused, as
 * WooCommerce refuses it (`variation_attribute_invalid`); an open attribute with no valid choice is
 * `variation_attribute_missing` / `variation_attribute_invalid`. Keys are matched as `normaliseVariationChoice` does.
 */
export function variationChoice (parent: Product, variation: Product, chosen: Record<string, string>): Result<Record<string, string>> {
  if (parent.type !== 'variable' || variation.type !== 'variation' || variation.parentId !== parent.id) {
    return fail(domainError('product_not_purchasable', 'This product cannot be added to the cart.'))
  }
  const result: Record<string, string> = {}
  for (const attribute of parent.attributes) {
    const label = attribute.label !== '' ? attribute.label : attribute.name
    const fixed = Object.entries(variation.variationAttributes)
      .find(([key]) => attributeKey(key) === attributeKey(attribute.name))?.[1]?.trim() ?? ''
    const given = lookupChoice(attribute, chosen)?.trim() ?? ''
    if (fixed !== '') {
      if (given !== '' && !sameValue(given, fixed)) {
        return fail(domainError('variation_attribute_invalid',
          `Invalid value posted for ${label}. Allowed values: ${fixed}`, { attribute: attribute.name, value: given }))
      }
      result[attribute.name] = attribute.options.find((o) => sameValue(o, fixed)) ?? fixed
      continue
    }
    if (given === '') {
      return fail(domainError('variation_attribute_missing',
        `Missing variation data for variable product. ${label} is a required field.`, { attribute: attribute.name }))
    }
    const option = attribute.options.length === 0 ? given : attribute.options.find((o) => sameValue(o, given))
    if (option === undefined) {
      return fail(domainError('variation_attribute_invalid',
        `Invalid value posted for ${label}. Allowed values: ${attribute.options.join(', ')}`, { attribute: attribute.name, value: given }))
    }
    result[attribute.name] = option
  }
  return ok(result)
}
