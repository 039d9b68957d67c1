import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { restError } from '../../../kernel/errors/index.ts'
import { LoginBody, LoginResponse, LogoutResponse, NonceResponse } from '../schemas/account.ts'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { LOGIN_SECURITY, OPTIONAL_SESSION_SECURITY, SESSION_SECURITY } from '../../../drawer/index.ts'
import { clearCartCookie, cookieCartKey, setCartCookie } from '../session/store-api-session.ts'
import { isCartKey } from '../session/cart-key.ts'
import { publicUser } from './auth-service.ts'
import { knownDevice, rememberDevice } from './known-device.ts'
import { clearSessionCookie, requestUser, setSessionCookie } from './session-cookie.ts'

const noStore = { 'Cache-Control': 'no-store, private' }
/** An e-mail address (254 characters) and a password (1,024), even JSON-escaped, fit; a larger body is 413 unread. */
const LOGIN_BODY_LIMIT = 8 * 1024
/** Logout takes no body. */
const LOGOUT_BODY_LIMIT = 1024

/** `/account/login`, `/account/logout`, `/account/rest-nonce`: the platform's login and REST nonces. */
export const accountRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify

  app.post('/account/login', {
    bodyLimit: LOGIN_BODY_LIMIT,
    schema: {
      tags: ['account'],
      operationId: 'login',
      summary: 'Log in',
      description: 'Attempts are throttled (429 with `Retry-After`, before the password is checked): per client address, whatever their outcome; per account and client, a wait that grows with each failure; per account, a budget of failures for clients it has not logged in from. A successful login sets a known-device cookie: later attempts from that browser are throttled on their own.',
      body: LoginBody,
      security: LOGIN_SECURITY,
      response: { 200: LoginResponse, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody, 503: ErrorBody }
    }
  }, async (request, reply) => {
    const { email } = request.body
    const { bucket } = await shop.clientOf(request)
    const admission = await shop.logins.admit({ bucket, email, device: knownDevice(request, email) })
    const authenticated = await shop.auth.login(email, request.body.password)
    if (authenticated === null) {
      await shop.logins.failed(admission)
      throw restError('svc_invalid_credentials')
    }
    await shop.logins.succeeded(admission)
    rememberDevice(request, reply, email, shop.knownDeviceMs)
    const previous = await requestUser(request, shop.auth)
    // A login always starts a new session with a new id: the one the browser had (if any) ends.
    if (previous) await shop.auth.logout(previous.session)

    // The guest's cart (token or cookie) joins the user's saved cart.
    const token = request.headers['cart-token']
    const fromToken = typeof token === 'string' ? shop.cartTokens.verify(token) : null
    const guestKey = fromToken !== null && isCartKey(fromToken) ? fromToken : cookieCartKey(request)
    const cartKey = await shop.carts.adoptOnLogin(authenticated.user.id, guestKey)
    if (cartKey !== null) setCartCookie(request, reply, cartKey)

    setSessionCookie(request, reply, authenticated.sessionId, authenticated.maxAgeSeconds)
    reply.headers(noStore)
    return { user: publicUser(authenticated.user), nonce: shop.auth.restNonce(authenticated) }
  })

  app.post('/account/logout', {
    bodyLimit: LOGOUT_BODY_LIMIT,
    schema: {
      tags: ['account'],
      operationId: 'logout',
      summary: 'Log out',
      description: 'Ends the session of the session cookie, if any, and clears the session and cart cookies. A body is not needed; one that is not valid JSON is a 400.',
      security: OPTIONAL_SESSION_SECURITY,
      response: { 200: LogoutResponse, 400: ErrorBody }
    }
  }, async (request, reply) => {
    const authenticated = await requestUser(request, shop.auth)
    if (authenticated) await shop.auth.logout(authenticated.session)
    clearSessionCookie(reply)
    // The user's cart stays saved with their account; the browser starts over as a guest.
    clearCartCookie(reply)
    reply.headers(noStore)
    return { logged_out: authenticated !== null }
  })

  app.get('/account/rest-nonce', {
    schema: {
      tags: ['account'],
      operationId: 'getRestNonce',
      summary: 'A fresh REST nonce for the logged-in user',
      security: SESSION_SECURITY,
      response: { 200: NonceResponse, 401: ErrorBody }
    }
  }, async (request, reply) => {
    const authenticated = await requestUser(request, shop.auth)
    if (authenticated === null) throw restError('svc_not_logged_in')
    reply.headers(noStore)
    return { nonce: shop.auth.restNonce(authenticated) }
  })
}
