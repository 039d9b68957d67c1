import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Address, BillingAddress, CartCustomer } from '../../../kernel/domain/types.ts'
import { RestError } from '../../../kernel/errors/index.ts'
import { CartOnlyResponses, ExtensionsBody, SelectShippingRateBody, UpdateCustomerBody } from '../schemas/store-api-cart-routes.ts'
import { cartResponder } from './cart-responder.ts'
import { fromWireAddress } from './address-wire.ts'
import { countryName, EMPTY_ADDRESS, EMPTY_BILLING } from '../../../kernel/domain/checkout.ts'

type AddressInput = Partial<Record<'first_name' | 'last_name' | 'company' | 'address_1' | 'address_2' | 'city' | 'state' | 'postcode' | 'country' | 'phone' | 'email', string>>

const US_STATES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District Of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  AA: 'Armed Forces (AA)',
  AE: 'Armed Forces (AE)',
  AP: 'Armed Forces (AP)'
}
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Whether `code` is an ISO 3166-1 alpha-2 country code (the checkout's rule). */
function isCountry (code: string): boolean {
  return countryName(code) !== undefined
}

function invalidParam (param: string, reason: string): RestError {
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, { params: { [param]: reason } })
}

/**
 * Checks and normalises an address as WooCommerce's address schema does: a known country (upper case), for the
 * United States a known state (its name becomes its code) and a ZIP code, and a valid e-mail on the billing address.
 */
function normaliseAddress (param: string, input: AddressInput, current: Address): Address {
  const merged = fromWireAddress(input, current)
  const next: Address = { ...merged, country: merged.country.trim().toUpperCase() }
  if (next.country !== '' && !isCountry(next.country)) {
    throw invalidParam(param, 'Invalid country code provided. Must be an ISO 3166-1 alpha-2 code.')
  }
  if (next.country === 'US') {
    const state = next.state.trim()
    if (state !== '') {
      const code = US_STATES[state.toUpperCase()] !== undefined
        ? state.toUpperCase()
        : Object.keys(US_STATES).find((candidate) => US_STATES[candidate]!.toLowerCase() === state.toLowerCase())
      if (code === undefined) throw invalidParam(param, 'The provided state (county) is invalid.')
      next.state = code
    }
    if (next.postcode.trim() !== '' && !/^\d{5}(-\d{4})?$/.test(next.postcode.trim())) {
      throw invalidParam(param, 'The provided postcode / ZIP is not valid.')
    }
  }
  return next
}

/** WooCommerce's CartUpdateCustomer, CartSelectShippingRate and CartExtensions. */
export const customerRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify
  const cart = cartResponder(fastify)

  app.post('/cart/update-customer', {
    bodyLimit: 16 * 1024,
    config: { idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'updateCartCustomer',
      summary: "Change the shopper's billing and shipping addresses",
      description: 'Only the given fields change. An invalid e-mail, country, US state or ZIP code answers 400 `rest_invalid_param`.',
      body: UpdateCustomerBody,
      response: CartOnlyResponses
    }
  }, async (request, reply) => {
    const { billing_address: billing, shipping_address: shipping } = request.body
    if (billing?.email !== undefined && billing.email.trim() !== '' && !EMAIL.test(billing.email.trim())) {
      throw invalidParam('billing_address', 'The provided email address is not valid')
    }
    // Validated against empty addresses first, so a bad request is refused before the cart's write.
    if (billing !== undefined) normaliseAddress('billing_address', billing, EMPTY_ADDRESS)
    if (shipping !== undefined) normaliseAddress('shipping_address', shipping, EMPTY_ADDRESS)
    return cart.change(request, reply, (key, viewer) => shop.carts.updateCustomer(key, (current): CartCustomer => {
      const currentBilling: BillingAddress = current?.billing ?? EMPTY_BILLING
      return {
        billing: billing === undefined
          ? currentBilling
          : { ...normaliseAddress('billing_address', billing, currentBilling), email: (billing.email ?? currentBilling.email).trim() },
        shipping: shipping === undefined ? current?.shipping ?? { ...EMPTY_ADDRESS } : normaliseAddress('shipping_address', shipping, current?.shipping ?? EMPTY_ADDRESS)
      }
    }, viewer))
  })

  app.post('/cart/select-shipping-rate', {
    bodyLimit: 16 * 1024,
    config: { idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'selectCartShippingRate',
      summary: 'Choose the shipping rate of a package',
      description: 'Without `package_id`, every package. The choice is kept as WooCommerce keeps it; a rate the package ' +
        'is not offered leaves its first rate selected.',
      body: SelectShippingRateBody,
      response: CartOnlyResponses
    }
  }, async (request, reply) => {
    const { package_id: packageId, rate_id: rateId } = request.body
    const target = packageId === undefined || packageId === null ? '0' : String(packageId)
    return cart.change(request, reply, (key, viewer) => shop.carts.selectShippingRate(key, target, rateId.trim(), viewer))
  })

  app.post('/cart/extensions', {
    bodyLimit: 16 * 1024,
    config: { idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'updateCartExtensions',
      summary: "Run an extension's cart update",
      description: 'A namespace without a registered update callback answers 400 `woocommerce_rest_cart_extensions_error`.',
      body: ExtensionsBody,
      response: CartOnlyResponses
    }
  }, async (request, reply) => {
    const { namespace, data = {} } = request.body
    const callback = shop.extendSchema.updateCallback(namespace)
    if (callback === undefined) {
      throw new RestError('woocommerce_rest_cart_extensions_error', `There is no such namespace registered: ${namespace}.`, 400)
    }
    return cart.change(request, reply, async (key, viewer) => {
      await callback({ cartKey: key, viewer, data })
      return shop.carts.get(key, viewer)
    })
  })
}
