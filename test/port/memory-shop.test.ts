import { buildTeaShop } from '../../examples/memory-shop/app.ts'
import { commercePortContract } from './commerce-port.contract.ts'
import { TEA_ADMIN, TEA_SECRET, TEA_URL, teaAdminLogin, teaCartToken } from './tea-shop.ts'

/**
 * The commerce port's contract against the example host (examples/memory-shop/): the tea shop in the Free edition,
 * with its own in-memory catalog, carts, Cart-Tokens and login.
 */
commercePortContract('the memory shop (examples/memory-shop/)', async (t, setup) => {
  const { app, commerce } = await buildTeaShop({ secret: TEA_SECRET, admin: TEA_ADMIN, homeUrl: TEA_URL, edition: 'free' })
  t.teardown(() => app.close())
  setup(app)
  await app.ready()
  return {
    app,
    commerce,
    newCartToken: () => teaCartToken(app),
    loginAsAdmin: async () => {
      const { cookie, nonce } = await teaAdminLogin(app)
      return { headers: { cookie }, nonce }
    },
    cartResponse: async (token) => (await app.inject({ method: 'GET', url: '/api/cart', headers: { 'cart-token': token } })).json(),
    fixtures: {
      // Sencha (1200) and the Tea Strainer (800): simple, no sale.
      products: [1, 3],
      // Sencha cross-sells the strainer and the honey.
      crossSells: { productId: 1, expected: [3, 4] },
      // Sencha and Jasmine Green Tea.
      search: { term: 'green tea', ids: [1, 9] },
      percentCoupon: { code: 'steep10', percent: 10 },
      variation: { parentId: 5, variationId: 52, attributes: { pa_size: 'large' } },
      unknownProductId: 999
    }
  }
})
