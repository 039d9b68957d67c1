import { test } from 'tap'
import { DOMAIN_REASONS } from '../../../kernel/domain/reasons.ts'
import { domainError } from '../../../kernel/domain/result.ts'
import {
  answersWithCart, domainReasons, errorTable, RestError, storeApiCode, storeApiError, svcError
} from '../../../kernel/errors/index.ts'

test('every reason the domain can give is answered on both APIs, and the table has no other row', async (t) => {
  t.same(Object.keys(domainReasons).sort(), [...DOMAIN_REASONS].sort())
  t.equal(new Set(DOMAIN_REASONS).size, DOMAIN_REASONS.length, 'no reason listed twice')
  for (const reason of DOMAIN_REASONS) {
    const error = domainError(reason, `Because of ${reason}.`)
    for (const [surface, answer] of [['storeApi', storeApiError(error)], ['svc', svcError(error)]] as const) {
      t.ok(answer instanceof RestError, `${reason} on ${surface}`)
      t.match(answer.code, /^(woocommerce_rest|svc)_[a-z_]+$/, `${reason} on ${surface}: a wire code`)
      t.ok(answer.status >= 400 && answer.status < 500, `${reason} on ${surface}: a client error`)
      t.ok(answer.message.length > 0, `${reason} on ${surface}: a message`)
    }
    t.equal(storeApiCode(reason), storeApiError(error).code, `${reason}: the cart's errors list shows the Store API code`)
    // The service's own codes keep the status kernel/errors/codes.ts gives them.
    for (const answer of [storeApiError(error), svcError(error)]) {
      const own = (errorTable as Record<string, { status: number }>)[answer.code]
      if (own !== undefined) t.equal(answer.status, own.status, `${reason}: ${answer.code} has its table status`)
    }
  }
})

test('coupon refusals: WooCommerce\'s code on the Store API, the service\'s own codes on svc/v1', async (t) => {
  const expired = domainError('coupon_expired', 'This coupon has expired.')
  t.same(storeApiError(expired).toBody(), {
    code: 'woocommerce_rest_cart_coupon_error',
    message: 'This coupon has expired.',
    data: { reason: 'expired', status: 400 }
  })
  t.same(svcError(expired).toBody(), { code: 'svc_coupon_invalid', message: 'This coupon has expired.', data: { reason: 'expired', status: 400 } })

  const minimum = domainError('coupon_minimum_spend', 'The minimum spend for this coupon is $50.00.')
  t.same(storeApiError(minimum).toBody(), {
    code: 'woocommerce_rest_cart_coupon_error',
    message: 'The minimum spend for this coupon is $50.00.',
    data: { reason: 'minimum_spend', status: 400 }
  }, 'the message the domain composed is kept')

  const twice = domainError('coupon_already_applied', 'Coupon code "save10" has already been applied.')
  t.same(svcError(twice).toBody(), {
    code: 'svc_coupon_already_applied',
    message: 'Coupon code "save10" has already been applied.',
    data: { reason: 'already_applied', status: 409 }
  })
  t.equal(answersWithCart('coupon_already_applied'), false, 'a 409 that is no cart conflict: no cart')
  const notApplied = domainError('coupon_not_applied', 'Coupon cannot be removed because it is not already applied to the cart.')
  t.same([svcError(notApplied).code, svcError(notApplied).status], ['svc_coupon_not_applied', 404])
  t.same([storeApiError(notApplied).code, storeApiError(notApplied).status], ['woocommerce_rest_cart_coupon_invalid_code', 409], 'WooCommerce\'s CartRemoveCoupon')
})

test('conflicts carry the cart; svc/v1 answers them in its own code and message, always with data.keys', async (t) => {
  const missing = domainError('item_not_found', 'Cart item no longer exists or is invalid.')
  t.equal(answersWithCart('item_not_found'), true)
  t.same(storeApiError(missing, { cart: 'CART' }).toBody(), {
    code: 'woocommerce_rest_cart_invalid_key',
    message: 'Cart item no longer exists or is invalid.',
    data: { cart: 'CART', status: 409 }
  })
  t.same(svcError(missing, { cart: 'CART' }).toBody(), {
    code: 'svc_cart_invalid_key',
    message: 'A cart item no longer exists: nothing was removed.',
    data: { keys: [], cart: 'CART', status: 409 }
  })

  const locked = domainError('item_locked', 'Locked cart items cannot be removed this way.', { keys: ['k'] })
  t.equal(answersWithCart('item_locked'), true)
  t.same(storeApiError(locked, { cart: 'CART' }).toBody(), {
    code: 'svc_cart_item_locked',
    message: 'Locked cart items cannot be removed this way.',
    data: { keys: ['k'], cart: 'CART', status: 409 }
  })
  t.same(svcError(locked, { cart: 'CART' }).toBody(), {
    code: 'svc_cart_item_locked',
    message: 'Locked cart items cannot be removed this way: nothing was removed.',
    data: { keys: ['k'], cart: 'CART', status: 409 }
  })
  t.same(DOMAIN_REASONS.filter(answersWithCart), ['item_not_found', 'item_locked'], 'the only conflicts')
})

test('the platform\'s refusals pass through svc/v1 as the Store API answers them', async (t) => {
  const stock = domainError('quantity_exceeds_stock', 'There is not enough stock of "Mug" for that quantity (3 remaining).', { remaining: 3 })
  const body = {
    code: 'woocommerce_rest_product_partially_out_of_stock',
    message: 'There is not enough stock of "Mug" for that quantity (3 remaining).',
    data: { remaining: 3, status: 400 }
  }
  t.same(storeApiError(stock).toBody(), body)
  t.same(svcError(stock).toBody(), body)
  t.equal(storeApiCode('quantity_not_multiple'), 'woocommerce_rest_product_invalid_quantity')
  t.equal(storeApiCode('line_product_missing'), 'woocommerce_rest_cart_invalid_product')
  t.equal(storeApiCode('variation_not_found'), 'woocommerce_rest_variation_id_from_variation_data')
})

test('bundle refusals: data.reason first, then the domain\'s details', async (t) => {
  const slots = domainError('bundle_slot_count', 'The bundle "Kit" has 3 slots: choose exactly one product for each (2 products given).',
    { bundle_id: 'kit', expected: 3, received: 2 })
  const body = svcError(slots).toBody()
  t.equal(body.code, 'svc_bundle_invalid')
  t.same(Object.keys(body.data), ['reason', 'bundle_id', 'expected', 'received', 'status'])
  t.equal(body.data.reason, 'slot_count')
  const gone = svcError(domainError('bundle_not_found', 'There is no bundle "nope".', { bundle_id: 'nope' }))
  t.same([gone.code, gone.status, gone.message, gone.data], ['svc_bundle_not_found', 404, 'There is no bundle "nope".', { bundle_id: 'nope' }])
  t.equal(svcError(domainError('bundle_product_unavailable', 'x')).code, 'svc_product_not_addable')
})
