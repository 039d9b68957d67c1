import { Type } from 'typebox'
import { ErrorBody } from '../../kernel/schemas/error.ts'
import { RecommendedProductSchema } from './svc-free.ts'

/** Request and response schemas of the bundle builder's `svc/v1` routes (Pro; design §3.7). */

/** Closed request bodies: see `drawer/schemas/svc-free.ts` (Fastify's Ajv would silently drop unknown properties). */
const closed = { additionalProperties: Type.Never() }

const BundleSlotViewSchema = Type.Object({
  label: Type.String(),
  products: Type.Array(RecommendedProductSchema, { minItems: 1, description: 'The products that can fill the slot now, in the configured order.' })
}, { title: 'SvcBundleSlot' })

export const BundleViewSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  discount_percent: Type.Integer({ minimum: 0, maximum: 100, description: 'Discount on every line of the bundle, before coupons.' }),
  slots: Type.Array(BundleSlotViewSchema, { description: 'Fill each slot with one of its products; `product_ids[i]` of `bundle-builder/add` fills slot `i`.' })
}, { title: 'SvcBundle' })

export const BundleConfigsSchema = Type.Array(BundleViewSchema, {
  description: 'The bundles on offer: none while the bundles section is disabled. Products that cannot be added now (not a simple product, not published, no price, out of stock) are left out of their slots, and a bundle with an empty slot is left out.'
})

export const CompanionsQuery = Type.Object({
  product_id: Type.Integer({ minimum: 1, description: 'The product the drawer shows.' })
})

export const BundleCompanionsSchema = Type.Array(Type.Object({
  id: Type.String({ description: 'The bundle.' }),
  title: Type.String(),
  description: Type.String(),
  discount_percent: Type.Integer({ minimum: 0, maximum: 100 }),
  slot_count: Type.Integer({ minimum: 1 }),
  slot_index: Type.Integer({ minimum: 0, description: 'The slot the product fills.' }),
  slot_label: Type.String(),
  companion_slots: Type.Array(Type.Object({
    index: Type.Integer({ minimum: 0 }),
    label: Type.String(),
    products: Type.Array(RecommendedProductSchema, { minItems: 1, description: 'What can fill this slot next to the product.' })
  }), { description: 'Every other slot of the bundle.' })
}, { title: 'SvcBundleCompanions' }), { description: 'The bundles the product can be part of now.' })

export const AddBundleBody = Type.Object({
  bundle_id: Type.String({ minLength: 1, maxLength: 40 }),
  product_ids: Type.Array(Type.Integer({ minimum: 1 }), {
    minItems: 1,
    maxItems: 20,
    description: 'One product per slot, in slot order: `product_ids[i]` fills slot `i`.'
  }),
  variations: Type.Optional(Type.Array(Type.Object({
    slot: Type.Integer({ minimum: 0, maximum: 19, description: 'The slot filled with a variable product.' }),
    attributes: Type.Array(Type.Object({
      attribute: Type.String({ minLength: 1, maxLength: 100 }),
      value: Type.String({ maxLength: 200 })
    }, closed), { maxItems: 20, description: 'The chosen attributes, as the Store API\'s `variation`.' })
  }, closed), { maxItems: 20, description: 'The attribute choices of the slots filled with variable products.' }))
}, closed)

export const publicErrors = { 400: ErrorBody, 403: ErrorBody, 503: ErrorBody } as const
