import type { DomainError } from '../../../domain/types.ts'

/** A cart change the domain refused; routes turn it into a REST error (adding the cart for a 409). */
export class CartActionError extends Error {
  readonly domainError: DomainError
  constructor (domainError: DomainError) {
    super(domainError.message)
    this.name = 'CartActionError'
    this.domainError = domainError
  }
}
