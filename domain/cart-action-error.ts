import type { DomainError } from './types.ts'

/**
 * A cart change the domain refused, with the domain's reason; routes answer it through the reason table of errors/
 * (`storeApiError`, `svcError`), adding the cart when `answersWithCart(reason)`.
 */
export class CartActionError extends Error {
  readonly domainError: DomainError
  constructor (domainError: DomainError) {
    super(domainError.message)
    this.name = 'CartActionError'
    this.domainError = domainError
  }
}
