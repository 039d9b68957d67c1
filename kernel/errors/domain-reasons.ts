import type { DomainError, DomainReason } from '../domain/types.ts'
import { errorTable, type ErrorCode } from './codes.ts'
import { RestError } from './rest-error.ts'

/** How one API answers a domain reason. */
export interface ReasonAnswer {
  readonly code: string
  readonly status: number
  /** A fixed message; without one the answer carries the message the domain composed (the shopper-facing text). */
  readonly message?: string
  /** Data every answer for the reason carries, ahead of the domain's details (a coupon refusal's `data.reason`). */
  readonly data?: Readonly<Record<string, unknown>>
}

export interface ReasonAnswers {
  /** The Store API's answer: WooCommerce's code and status. Also the code of a cart's `errors` list. */
  readonly storeApi: ReasonAnswer
  /** The `svc/v1` answer: the service's own code where it has one, else the platform's refusal as it is. */
  readonly svc: ReasonAnswer
  /** A conflict: both APIs add the cart as it stands (`data.cart`), so the client can redraw without another request. */
  readonly withCart: boolean
}

/** One of the service's own codes, with its status (and, with `message: true`, its fixed message) from `errorTable`. */
function own (code: ErrorCode, options: { message?: boolean, data?: Record<string, unknown> } = {}): ReasonAnswer {
  const entry = errorTable[code]
  return {
    code,
    status: entry.status,
    ...(options.message === true ? { message: entry.message } : {}),
    ...(options.data === undefined ? {} : { data: options.data })
  }
}

/** Both APIs answer alike (the platform's refusal, which the `svc/v1` routes pass on as it is). */
function same (answer: ReasonAnswer): ReasonAnswers {
  return { storeApi: answer, svc: answer, withCart: false }
}

/** WooCommerce's coupon refusal (`data.reason` says which); `svc/v1` answers in its own codes (design §3.7). */
function couponRefusal (reason: string, svcCode: ErrorCode): ReasonAnswers {
  return {
    storeApi: { code: 'woocommerce_rest_cart_coupon_error', status: 400, data: { reason } },
    svc: own(svcCode, { data: { reason } }),
    withCart: false
  }
}

const INVALID_PRODUCT: ReasonAnswer = { code: 'woocommerce_rest_cart_invalid_product', status: 400 }
const INVALID_QUANTITY: ReasonAnswer = { code: 'woocommerce_rest_product_invalid_quantity', status: 400 }
const INVALID_VARIATION_DATA: ReasonAnswer = { code: 'woocommerce_rest_invalid_variation_data', status: 400 }

/**
 * The one table from the domain's reasons to the answers: every reason the domain can give, and how the Store API and
 * `svc/v1` answer it. The message is the domain's unless an answer fixes its own; data is the answer's fixed data,
 * then the domain's details, then what the route adds (the cart of a conflict).
 */
export const domainReasons = {
  coupon_not_found: couponRefusal('not_found', 'svc_coupon_invalid'),
  coupon_already_applied: couponRefusal('already_applied', 'svc_coupon_already_applied'),
  coupon_usage_limit: couponRefusal('usage_limit', 'svc_coupon_invalid'),
  coupon_expired: couponRefusal('expired', 'svc_coupon_invalid'),
  coupon_minimum_spend: couponRefusal('minimum_spend', 'svc_coupon_invalid'),
  // WooCommerce's CartRemoveCoupon: a 409 (the route adds the cart, as every Store API 409 does).
  coupon_not_applied: {
    storeApi: { code: 'woocommerce_rest_cart_coupon_invalid_code', status: 409 },
    svc: own('svc_coupon_not_applied', { data: { reason: 'not_applied' } }),
    withCart: false
  },

  product_not_found: same(INVALID_PRODUCT),
  // WooCommerce's CartController::throw_default_product_exception; `svc/v1` keeps the platform's older answer.
  product_not_purchasable: {
    storeApi: { code: 'woocommerce_rest_product_not_purchasable', status: 400 },
    svc: INVALID_PRODUCT,
    withCart: false
  },
  product_out_of_stock: same({ code: 'woocommerce_rest_product_out_of_stock', status: 400 }),
  product_sold_individually: same({ code: 'woocommerce_rest_cart_product_sold_individually', status: 400 }),
  quantity_not_whole: same(INVALID_QUANTITY),
  quantity_below_minimum: same(INVALID_QUANTITY),
  quantity_above_maximum: same(INVALID_QUANTITY),
  quantity_not_multiple: same(INVALID_QUANTITY),
  quantity_exceeds_stock: same({ code: 'woocommerce_rest_product_partially_out_of_stock', status: 400 }),

  variation_attribute_missing: same({ code: 'woocommerce_rest_missing_variation_data', status: 400 }),
  variation_attribute_invalid: same(INVALID_VARIATION_DATA),
  variation_not_found: same({ code: 'woocommerce_rest_variation_id_from_variation_data', status: 400 }),

  // Conflicts: `svc/v1` answers with its own code and message, always listing `data.keys`.
  item_not_found: {
    storeApi: { code: 'woocommerce_rest_cart_invalid_key', status: 409 },
    svc: own('svc_cart_invalid_key', { message: true, data: { keys: [] } }),
    withCart: true
  },
  item_locked: {
    storeApi: own('svc_cart_item_locked'),
    svc: own('svc_cart_item_locked', { message: true, data: { keys: [] } }),
    withCart: true
  },

  line_product_missing: same(INVALID_PRODUCT),
  line_product_unpurchasable: same(INVALID_PRODUCT),

  bundle_not_found: same(own('svc_bundle_not_found')),
  bundle_slot_count: same(own('svc_bundle_invalid', { data: { reason: 'slot_count' } })),
  bundle_duplicate_product: same(own('svc_bundle_invalid', { data: { reason: 'duplicate' } })),
  bundle_product_not_in_slot: same(own('svc_bundle_invalid', { data: { reason: 'not_in_slot' } })),
  bundle_product_unavailable: same(own('svc_product_not_addable'))
} satisfies Record<DomainReason, ReasonAnswers>

function answer (how: ReasonAnswer, error: DomainError, extra: Record<string, unknown> | undefined): RestError {
  return new RestError(how.code, how.message ?? error.message, how.status, { ...how.data, ...error.data, ...extra })
}

/** The Store API's answer to a domain refusal; `extra` is added to its data (the cart of a conflict). */
export function storeApiError (error: DomainError, extra?: Record<string, unknown>): RestError {
  return answer(domainReasons[error.reason].storeApi, error, extra)
}

/** The `svc/v1` answer to a domain refusal; `extra` is added to its data (the cart of a conflict). */
export function svcError (error: DomainError, extra?: Record<string, unknown>): RestError {
  return answer(domainReasons[error.reason].svc, error, extra)
}

/** Whether the answer to `reason` carries the cart as it stands (a conflict, on both APIs). */
export function answersWithCart (reason: DomainReason): boolean {
  return domainReasons[reason].withCart
}

/** The code a cart's `errors` list shows for a problem found while pricing it (the Store API's, in both APIs). */
export function storeApiCode (reason: DomainReason): string {
  return domainReasons[reason].storeApi.code
}
