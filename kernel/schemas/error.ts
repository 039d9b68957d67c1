import { Type, type Static, type TObjectOptions, type TProperties } from 'typebox'

/**
 * A WordPress REST error body `{code, message, data: {status, …}}` whose `data` lists the given properties and stays
 * open: anything else an error adds to `data` (`params`, `reason`, `additional_errors`…) is written as it is.
 */
export function ErrorBodyWith<Properties extends TProperties> (data: Properties, options: TObjectOptions = {}) {
  return Type.Object({
    code: Type.String({ description: 'Machine-readable error code, e.g. `woocommerce_rest_cart_invalid_key`.' }),
    message: Type.String({ description: 'Human-readable message.' }),
    data: Type.Object({
      status: Type.Integer({ minimum: 100, maximum: 599, description: 'The HTTP status.' }),
      ...data
    }, { additionalProperties: true, description: 'The status and any details of the error.' })
  }, { title: 'RestError', description: 'A WordPress REST error.', ...options })
}

/** The WordPress REST error body every failure uses. */
export const ErrorBody = ErrorBodyWith({})
export type ErrorResponseBody = Static<typeof ErrorBody>
