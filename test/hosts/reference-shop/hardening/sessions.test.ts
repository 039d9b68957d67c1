import { createHash } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test } from 'tap'
import { build, createStorage, SITE_URL, SVC, type Backend, type Teardown } from '../../../helper.ts'
import { USERS } from '../../../helpers/security.ts'

/**
 * A login session ends after 30 minutes without use and 12 hours after the login however much it
 * is used; the store holds only a hash of its id; a login always starts a session with a new id, and a change of the
 * user's capabilities gives the session a new id at its next request (the old one stops working). The limits are
 * the defaults, written out here from docs/decisions/passwords-and-sessions.md, not imported.
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** A browser on the app's clock: keeps the session cookie. */
class Browser {
  cookie = ''
  readonly #app: FastifyInstance
  constructor (app: FastifyInstance) { this.#app = app }

  async request (method: 'GET' | 'POST', url: string, options: { payload?: object, headers?: Record<string, string> } = {}): Promise<LightMyRequestResponse> {
    const response = await this.#app.inject({ method, url, headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...options.headers }, ...(options.payload ? { payload: options.payload } : {}) })
    const session = response.cookies.find((cookie) => cookie.name === 'svc_session')
    if (session !== undefined) this.cookie = session.value === '' ? '' : `svc_session=${session.value}`
    return response
  }

  login (who: { email: string, password: string }) { return this.request('POST', '/account/login', { payload: who }) }
  nonce () { return this.request('GET', '/account/rest-nonce') }
  /** The session id the cookie carries (the value before the cookie signature). */
  get sessionId (): string { return this.cookie.replace(/^svc_session=/, '').replace(/\.[^.]*$/, '') }
}

const sha256 = (id: string) => createHash('sha256').update(id).digest('base64url')

async function setup (t: Teardown, backend: Backend) {
  let clock = Date.UTC(2026, 2, 2, 9)
  const storage = await createStorage(t, { backend, users: USERS })
  const app = await build(t, { storage, seed: false, now: () => new Date(clock), sweep: false })
  return { app, storage, advance: (ms: number) => { clock += ms }, now: () => new Date(clock) }
}

for (const backend of ['memory', 'pglite'] as Backend[]) {
  test(`sessions: only a hash of the id is stored (${backend})`, async (t) => {
    const { app, storage } = await setup(t, backend)
    const browser = new Browser(app)
    const login = await browser.login(USERS.shopper)
    t.equal(login.statusCode, 200)
    const id = browser.sessionId
    t.ok(id.length >= 43, 'a 256-bit id')
    t.equal(await storage.getSession(id), null, 'the id itself is found nowhere in the store')
    const stored = await storage.getSession(sha256(id))
    t.equal(stored?.userId, login.json().user.id, 'its SHA-256 is')
    t.not(JSON.stringify(stored).includes(id), true, 'and the record does not hold the id')
    t.equal((await browser.nonce()).statusCode, 200)
  })

  test(`sessions: an idle timeout of 30 minutes and a lifetime of 12 hours (${backend})`, async (t) => {
    const { app, storage, advance, now } = await setup(t, backend)

    const idle = new Browser(app)
    await idle.login(USERS.shopper)
    advance(29 * MINUTE)
    t.equal((await idle.nonce()).statusCode, 200, '29 minutes idle: still logged in')
    advance(29 * MINUTE)
    t.equal((await idle.nonce()).statusCode, 200, 'each use moves the idle deadline on')
    const stored = await storage.getSession(sha256(idle.sessionId))
    advance(31 * MINUTE)
    const late = await idle.nonce()
    t.equal(late.statusCode, 401, '31 minutes idle: logged out')
    t.equal(late.json().code, 'svc_not_logged_in')
    t.ok(stored !== null && Date.parse(stored.expiresAt) < now().getTime(), 'the stored expiry is the idle deadline…')
    t.ok(await storage.purgeExpiredSessions(now().toISOString(), 10) >= 1, '…so the sweep deletes idle sessions too')
    t.equal(await storage.getSession(sha256(idle.sessionId)), null)

    const busy = new Browser(app)
    await busy.login(USERS.admin)
    let used = 0
    while (used + 25 * MINUTE < 12 * HOUR) {
      advance(25 * MINUTE)
      used += 25 * MINUTE
      if ((await busy.nonce()).statusCode !== 200) break
    }
    t.equal(used, 11 * HOUR + 40 * MINUTE, 'used every 25 minutes, the session lives on until its lifetime…')
    advance(21 * MINUTE)
    t.equal((await busy.nonce()).statusCode, 401, '…and ends 12 hours after the login however busy it is')
  })

  test(`sessions: a login always starts a session with a new id (${backend})`, async (t) => {
    const { app } = await setup(t, backend)
    const browser = new Browser(app)
    await browser.login(USERS.shopper)
    const first = browser.cookie
    await browser.login(USERS.shopper)
    t.not(browser.cookie, first, 'logging in again: a new id')
    t.equal((await browser.nonce()).statusCode, 200)
    const replay = await app.inject({ method: 'GET', url: '/account/rest-nonce', headers: { cookie: first } })
    t.equal(replay.statusCode, 401, 'the id the browser had before no longer works')

    // An id planted in a browser before the victim logs in (session fixation) is replaced by the login.
    const attacker = new Browser(app)
    await attacker.login(USERS.shopper)
    const victim = new Browser(app)
    victim.cookie = attacker.cookie
    await victim.login(USERS.admin)
    t.not(victim.cookie, attacker.cookie)
    t.equal((await attacker.nonce()).statusCode, 401, 'the planted session ended with the login')
    t.equal((await victim.nonce()).statusCode, 200)
  })

  test(`sessions: a change of the user's capabilities gives the session a new id (${backend})`, async (t) => {
    const { app, storage } = await setup(t, backend)
    const browser = new Browser(app)
    const login = await browser.login(USERS.shopper)
    const userId = login.json().user.id as number
    const before = browser.cookie
    const oldNonce = login.json().nonce as string
    const settings = () => browser.request('GET', `${SVC}/settings`, { headers: { origin: SITE_URL, 'x-wp-nonce': oldNonce } })
    t.equal((await settings()).json().code, 'svc_forbidden', 'a shopper may not read the settings')

    await storage.setUserCapabilities(userId, ['read', 'manage_shop'])
    const renewed = await settings()
    t.not(browser.cookie, before, 'the next answer carries a new session id')
    t.equal(renewed.json().code, 'svc_invalid_nonce', 'a nonce of the old session does not carry over to the new one')
    const replay = await app.inject({ method: 'GET', url: '/account/rest-nonce', headers: { cookie: before } })
    t.equal(replay.statusCode, 401, 'the old id no longer works')

    const nonce = (await browser.nonce()).json().nonce as string
    t.not(nonce, oldNonce)
    const granted = await browser.request('GET', `${SVC}/settings`, { headers: { origin: SITE_URL, 'x-wp-nonce': nonce } })
    t.equal(granted.statusCode, 200, 'with the new id and its nonce the shop manager reads the settings')
    t.equal((await browser.nonce()).cookies.length, 0, 'no further renewal while the capabilities stay')

    await storage.setUserCapabilities(userId, ['read'])
    const promoted = browser.cookie
    const demoted = await browser.request('GET', `${SVC}/settings`, { headers: { origin: SITE_URL, 'x-wp-nonce': nonce } })
    t.not(browser.cookie, promoted, 'taking a capability away renews the id too')
    t.equal(demoted.statusCode, 403)
    t.equal((await browser.nonce()).statusCode, 200, 'the user stays logged in')
  })

  test(`sessions: a broken session cookie is a guest, never a 500 (${backend})`, async (t) => {
    const { app } = await setup(t, backend)
    for (const cookie of ['svc_session=', 'svc_session=garbage', `svc_session=${'a'.repeat(43)}.forged-signature`, `svc_session=${'%'.repeat(300)}`]) {
      const response = await app.inject({ method: 'GET', url: '/account/rest-nonce', headers: { cookie } })
      t.equal(response.statusCode, 401, cookie.slice(0, 40))
      t.same(response.json(), { code: 'svc_not_logged_in', message: 'You are not logged in.', data: { status: 401 } })
    }
  })
}
