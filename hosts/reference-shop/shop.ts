import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Storage } from '../../storage/contract/index.ts'
import type { CommercePort, ClientAddressOf } from '../../drawer/index.ts'
import type { AuthService } from './auth/auth-service.ts'
import type { LoginThrottle } from './auth/login-limit.ts'
import type { CartService } from './cart/cart-service.ts'
import type { CheckoutService } from './checkout/checkout-service.ts'
import type { FilterRegistry } from './filters/registry.ts'
import type { CartTokenSigner } from './session/cart-token.ts'
import type { ExtendSchema } from './store-api/extend-schema.ts'
import type { SerializeContext } from './store-api/serialize-product.ts'

/** The reference platform's parts, as `fastify.shop`. */
export interface Shop {
  storage: Storage
  carts: CartService
  /** Places orders from carts (`wc/store/v1/checkout`). */
  checkout: CheckoutService
  cartTokens: CartTokenSigner
  auth: AuthService
  filters: FilterRegistry
  extendSchema: ExtendSchema
  serializeContext: SerializeContext
  restRoot: string
  homeUrl: string
  siteUrl: string
  /** The shop's clock (tests move it). */
  now: () => Date
  /** Login throttling (hosts/reference-shop/auth/login-limit.ts): admits attempts, counts their outcomes. */
  logins: LoginThrottle
  /** How long a known-device cookie lasts. */
  knownDeviceMs: number
  /** The client address and its rate-limit bucket, as every limit finds it (trusted proxies from one source). */
  clientOf: ClientAddressOf
  /** The platform as the cart drawer sees it: pass it to `cartDrawer` as `commerce`. */
  commerce: CommercePort
  /** The Store API nonce a page embeds for its cookie-session writes (`Nonce` header); sets the cart cookie of a new guest. */
  storeApiNonce: (request: FastifyRequest, reply: FastifyReply) => Promise<string>
}
