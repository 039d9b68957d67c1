import { Type } from 'typebox'

/** Bodies of the classic `?wc-ajax=` endpoints (form-encoded or JSON). */

export const WcAjaxQuery = Type.Object({
  'wc-ajax': Type.Optional(Type.String({ maxLength: 64 }))
})

export const AddToCartBody = Type.Object({
  product_id: Type.Integer({ minimum: 1 }),
  quantity: Type.Integer({ default: 1 }),
  variation_id: Type.Optional(Type.Integer({ minimum: 0 }))
}, {
  // Variable products send their chosen values as `attribute_<name>` fields.
  title: 'WcAjaxAddToCartBody',
  description: 'The product, the quantity, and for a variation its id and the chosen `attribute_<name>` values.',
  additionalProperties: Type.String({ maxLength: 200 }),
  maxProperties: 60
})

export const RemoveFromCartBody = Type.Object({
  cart_item_key: Type.String({ minLength: 1, maxLength: 64 })
}, { title: 'WcAjaxRemoveFromCartBody', description: 'The key of the cart item to remove.' })

export const FragmentsResponse = Type.Object({
  fragments: Type.Record(Type.String(), Type.Unknown()),
  cart_hash: Type.String()
}, { title: 'WcAjaxFragments', description: 'The page fragments to replace (CSS selector → HTML, after the fragments filter) and the cart hash.' })

export const AddToCartError = Type.Object({
  error: Type.Literal(true),
  product_url: Type.String()
}, { title: 'WcAjaxAddToCartError', description: "The product could not be added: its page, for the shopper's choices." })

export const AjaxFailure = Type.Object({ success: Type.Literal(false) }, { title: 'WcAjaxFailure', description: 'Nothing was removed (no such cart item).' })
