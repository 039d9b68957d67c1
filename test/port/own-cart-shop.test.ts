import { test } from 'tap'
import { buildInkShop } from '../../examples/own-cart-shop/app.ts'
import { commercePortContract, type PortContractFixtures } from '../../testing/index.ts'

/**
 * The commerce port's contract (the kit) against the second example host (examples/own-cart-shop/): a shop whose
 * cart, totals and coupons are its own, in the Free edition without the demo's drawer settings.
 */

const ADMIN = { email: 'manager@ink.test', password: 'nib-and-quill-123' }
const FIXTURES: PortContractFixtures = {
  // The Dotted Notebook (€9.00) and the Ink Bottle (€7.00).
  products: [1, 3],
  crossSells: { productId: 1, expected: [3, 4] },
  // The Desk Lamp (variable) and the Desk Pad.
  search: { term: 'desk', ids: [5, 9] },
  percentCoupon: { code: 'ink10', percent: 10 },
  variation: { parentId: 5, variationId: 52, attributes: { pa_colour: 'white' } },
  unknownProductId: 999
}

commercePortContract(test, {
  name: 'the own-cart shop (examples/own-cart-shop/)',
  start: async (prepare) => {
    const { app, commerce } = await buildInkShop({ secret: 'an-own-cart-test-secret-of-at-least-32-bytes', admin: ADMIN, homeUrl: 'http://ink.test', edition: 'free', demoSettings: false })
    prepare(app)
    await app.ready()
    return {
      app,
      commerce,
      fixtures: FIXTURES,
      newCartToken: async () => String((await app.inject({ method: 'GET', url: '/api/cart' })).headers['cart-token']),
      loginAsAdmin: async () => {
        const response = await app.inject({ method: 'POST', url: '/account/login', payload: ADMIN })
        return { headers: { cookie: response.cookies.map(({ name, value }) => `${name}=${value}`).join('; ') }, nonce: response.json().nonce }
      },
      cartResponse: async (token) => (await app.inject({ method: 'GET', url: '/api/cart', headers: { 'cart-token': token } })).json(),
      close: () => app.close()
    }
  }
})
