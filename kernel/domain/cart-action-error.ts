import type { DomainError } from './types.ts'

/**
 * A cart change the domain refused, with the domain's reason; routes answer it through the reason table of kernel/errors/
 * (`storeApiError`, `svcError`), adding the cart when `answersWithCart(reason)`.
 */
export class CartActionError extends Error {
  readonly domainError: DomainError
  /** In a list of changes applied together (`CartsPort.change`): the position of the change that was refused. */
  readonly changeIndex: number | undefined
  constructor (domainError: DomainError, changeIndex?: number) {
    super(domainError.message)
    this.name = 'CartActionError'
    this.domainError = domainError
    this.changeIndex = changeIndex
  }
}
