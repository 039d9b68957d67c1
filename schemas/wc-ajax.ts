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
  additionalProperties: Type.String({ maxLength: 200 }),
  maxProperties: 60
})

export const RemoveFromCartBody = Type.Object({
  cart_item_key: Type.String({ minLength: 1, maxLength: 64 })
})

export const FragmentsResponse = Type.Object({
  fragments: Type.Record(Type.String(), Type.Unknown()),
  cart_hash: Type.String()
})

export const AddToCartError = Type.Object({
  error: Type.Literal(true),
  product_url: Type.String()
})

export const AjaxFailure = Type.Object({ success: Type.Literal(false) })
