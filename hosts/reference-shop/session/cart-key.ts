import { randomBytes } from 'node:crypto'

/** Guest cart keys look like WooCommerce's: `t_` and 30 hex characters. */
const CART_KEY = /^t_[0-9a-f]{30}$/

export function newCartKey (): string {
  return `t_${randomBytes(15).toString('hex')}`
}

export function isCartKey (value: string): boolean {
  return CART_KEY.test(value)
}
