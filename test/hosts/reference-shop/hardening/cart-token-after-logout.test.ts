import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test } from 'tap'
import type { Storage } from '../../../../storage/contract/index.ts'
import { build, createStorage, SITE_URL, STORE_API, SVC, type Backend } from '../../../helper.ts'
import { cartKeyOf, login, logout, USERS, type Login } from '../../../helpers/security.ts'

/**
 * A Cart-Token of a logged-in user's cart is accepted only together with that user's session. After
 * logout the token neither reads nor writes the saved cart, another logged-in user presenting it does not take the
 * cart over, and the owner's next login finds the cart as they left it. The same holds for the classic session's cart
 * cookie, and on the drawer's routes (`svc/v1`) as on the Store API.
 */

interface Items { items: Array<{ id: number, quantity: number }> }

async function storeApi (app: FastifyInstance, method: 'GET' | 'POST', path: string, headers: Record<string, string>, payload?: object): Promise<LightMyRequestResponse> {
  return app.inject({ method, url: `${STORE_API}/${path}`, headers, ...(payload === undefined ? {} : { payload }) })
}

async function svcCart (app: FastifyInstance, headers: Record<string, string>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: `${SVC}/cart`, headers: { origin: SITE_URL, ...headers } })
}

const quantities = (body: Items) => body.items.map(({ id, quantity }) => ({ id, quantity }))

async function storedLines (storage: Storage, key: string) {
  const cart = await storage.getCart(key)
  return { userId: cart?.userId ?? null, lines: (cart?.data.lines ?? []).map(({ productId, quantity }) => ({ productId, quantity })) }
}

for (const backend of ['memory', 'pglite'] as Backend[]) {
  test(`a user's Cart-Token works only with that user's session (${backend})`, async (t) => {
    const storage = await createStorage(t, { backend, users: USERS })
    const app = await build(t, { storage, seed: false })

    // The shopper fills their cart while logged in: the token they hold names a cart bound to them.
    const shopper = await login(app, USERS.shopper)
    const first = await storeApi(app, 'GET', 'cart', { cookie: shopper.cookie })
    const token = first.headers['cart-token'] as string
    const key = cartKeyOf(token)
    const added = await storeApi(app, 'POST', 'cart/add-item', { cookie: shopper.cookie, 'cart-token': token }, { id: 101, quantity: 2 })
    t.equal(added.statusCode, 201)
    const saved = await storedLines(storage, key)
    t.same(saved, { userId: shopper.userId, lines: [{ productId: 101, quantity: 2 }] }, 'the cart is the shopper\'s')
    t.equal((await svcCart(app, { 'cart-token': token, cookie: shopper.cookie, 'x-wp-nonce': shopper.nonce })).statusCode, 200,
      'with their session the token reaches their cart on svc/v1')
    const cartCookie = (await storeApi(app, 'GET', 'cart', { cookie: shopper.cookie })).cookies.find((cookie) => cookie.name === 'svc_cart')
    await logout(app, shopper)

    t.test('after logout the token alone neither reads nor writes the saved cart', async (t) => {
      const read = await storeApi(app, 'GET', 'cart', { 'cart-token': token })
      t.equal(read.statusCode, 200, 'the Store API answers as for any token it does not accept')
      t.same(quantities(read.json()), [], 'an empty cart, not the saved one')
      t.not(cartKeyOf(read.headers['cart-token'] as string), key, 'a new cart, with a token of its own')

      const write = await storeApi(app, 'POST', 'cart/add-item', { 'cart-token': token }, { id: 103, quantity: 5 })
      t.equal(write.statusCode, 201)
      t.same(quantities(write.json()), [{ id: 103, quantity: 5 }], 'the add went to a new cart')
      t.same(await storedLines(storage, key), saved, 'the saved cart is unchanged')

      const drawer = await svcCart(app, { 'cart-token': token })
      t.equal(drawer.statusCode, 403)
      t.same(drawer.json(), { code: 'svc_invalid_cart_token', message: 'Missing or invalid Cart-Token.', data: { status: 403 } },
        'svc/v1 refuses it in the REST error shape')
    })

    t.test('a copied cart cookie of the saved cart is not accepted either', async (t) => {
      t.ok(cartCookie, 'the shopper\'s browser had a cart cookie')
      const read = await storeApi(app, 'GET', 'cart', { cookie: `svc_cart=${cartCookie!.value}` })
      t.same(quantities(read.json()), [], 'an empty cart')
      t.not(cartKeyOf(read.headers['cart-token'] as string), key)
      const page = await app.inject({ method: 'GET', url: '/?wc-ajax=get_refreshed_fragments', headers: { cookie: `svc_cart=${cartCookie!.value}` } })
      t.equal(page.statusCode, 200)
      t.notMatch(page.json().fragments['div.widget_shopping_cart_content'], /&times;/, 'the classic cart shows no lines')
    })

    t.test('another logged-in user presenting the token does not take the cart over', async (t) => {
      const admin: Login = await login(app, USERS.admin)
      const read = await storeApi(app, 'GET', 'cart', { cookie: admin.cookie, 'cart-token': token })
      t.same(quantities(read.json()), [], 'not the shopper\'s cart')
      const write = await storeApi(app, 'POST', 'cart/add-item', { cookie: admin.cookie, 'cart-token': token }, { id: 103, quantity: 1 })
      t.equal(write.statusCode, 201)
      t.not(cartKeyOf(write.headers['cart-token'] as string), key)
      t.same(await storedLines(storage, key), saved, 'the shopper\'s cart keeps its owner and its lines')

      const drawer = await svcCart(app, { cookie: admin.cookie, 'x-wp-nonce': admin.nonce, 'cart-token': token })
      t.equal(drawer.statusCode, 403)
      t.equal(drawer.json().code, 'svc_invalid_cart_token')

      // A login with the token in hand does not merge the shopper's cart into the other user's either.
      const other = await app.inject({ method: 'POST', url: '/account/login', headers: { 'cart-token': token }, payload: USERS.admin })
      t.equal(other.statusCode, 200)
      t.same(await storedLines(storage, key), saved)
      await logout(app, admin)
    })

    t.test('the owner\'s next login finds the cart as they left it', async (t) => {
      const again = await login(app, USERS.shopper)
      const read = await storeApi(app, 'GET', 'cart', { cookie: again.cookie })
      t.same(quantities(read.json()), [{ id: 101, quantity: 2 }])
      t.equal(cartKeyOf(read.headers['cart-token'] as string), key, 'the same cart')
      const withToken = await storeApi(app, 'GET', 'cart', { cookie: again.cookie, 'cart-token': token })
      t.same(quantities(withToken.json()), [{ id: 101, quantity: 2 }], 'the old token works again with the owner\'s session')
      const drawer = await svcCart(app, { 'cart-token': token, cookie: again.cookie, 'x-wp-nonce': again.nonce })
      t.equal(drawer.statusCode, 200)
    })
  })
}
