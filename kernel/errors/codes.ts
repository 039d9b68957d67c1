import { RestError } from './rest-error.ts'

/** The service's own error codes, each with its status and default message (design §3.2, specification §7). */
export const errorTable = {
  svc_invalid_params: { status: 400, message: 'Invalid parameter(s).' },
  svc_coupon_invalid: { status: 400, message: 'This coupon cannot be used.' },
  svc_product_not_addable: { status: 400, message: 'This product cannot be added from the drawer.' },
  svc_addon_unavailable: { status: 400, message: 'This add-on is not available for this cart.' },
  svc_spotlight_unavailable: { status: 400, message: 'This offer is not available for this cart.' },
  svc_bundle_invalid: { status: 400, message: 'This bundle selection is not valid.' },
  svc_settings_import_invalid: { status: 400, message: 'The file is not a valid settings export: nothing was changed.' },
  svc_invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  svc_jsonp_disabled: { status: 400, message: 'JSONP is not supported.' },
  svc_method_override_disabled: { status: 400, message: 'HTTP method override is not supported.' },
  svc_idempotency_key_invalid: { status: 400, message: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.' },
  svc_not_logged_in: { status: 401, message: 'You are not logged in.' },
  svc_invalid_credentials: { status: 401, message: 'Unknown e-mail address or wrong password.' },
  svc_forbidden: { status: 403, message: 'Sorry, you are not allowed to do that.' },
  svc_forbidden_origin: { status: 403, message: 'This origin is not allowed.' },
  svc_invalid_cart_token: { status: 403, message: 'Missing or invalid Cart-Token.' },
  svc_invalid_nonce: { status: 403, message: 'Cookie check failed.' },
  svc_not_found: { status: 404, message: 'No route was found matching the URL and request method.' },
  svc_product_not_found: { status: 404, message: 'No such product.' },
  svc_addon_not_found: { status: 404, message: 'No such add-on.' },
  svc_bundle_not_found: { status: 404, message: 'No such bundle.' },
  svc_coupon_not_applied: { status: 404, message: 'This coupon is not applied to the cart.' },
  svc_method_not_allowed: { status: 405, message: 'Method not allowed.' },
  svc_cart_invalid_key: { status: 409, message: 'A cart item no longer exists: nothing was removed.' },
  svc_cart_item_locked: { status: 409, message: 'Locked cart items cannot be removed this way: nothing was removed.' },
  svc_coupon_already_applied: { status: 409, message: 'This coupon is already applied.' },
  svc_settings_conflict: { status: 409, message: 'The settings were changed by someone else since they were read.' },
  svc_idempotency_key_in_use: { status: 409, message: 'A request with this Idempotency-Key is still being processed. Please try again in a moment.' },
  svc_body_too_large: { status: 413, message: 'The request body is too large.' },
  svc_uri_too_long: { status: 414, message: 'A part of the URL is too long.' },
  svc_unsupported_media_type: { status: 415, message: 'Unsupported content type.' },
  svc_idempotency_key_reused: { status: 422, message: 'This Idempotency-Key was already used for a different request: send a new key with each new request.' },
  svc_rate_limit_exhausted: { status: 429, message: 'Too many requests. Please try again later.' },
  svc_internal_error: { status: 500, message: 'An internal error occurred.' },
  svc_storage_unavailable: { status: 503, message: 'The shop is temporarily unavailable. Please try again.' },
  svc_cart_session_unavailable: { status: 503, message: 'The cart session could not be started.' },
  svc_rate_limit_unavailable: { status: 503, message: 'Rate limiting is unavailable. Please try again.' }
} as const satisfies Record<string, { status: number, message: string }>

export type ErrorCode = keyof typeof errorTable

export function restError (code: ErrorCode, message?: string, data?: Record<string, unknown>, headers?: Record<string, string>): RestError {
  const entry = errorTable[code]
  return new RestError(code, message ?? entry.message, entry.status, data, headers)
}
