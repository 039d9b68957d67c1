import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { hashPassword } from '../../../../hosts/reference-shop/index.ts'
import { seedDemoUsers } from '../../../../seed/seed.ts'
import type { Storage } from '../../../../storage/contract/index.ts'
import { buildTestApp, TEST_LONG_SESSIONS, TEST_PASSWORD_HASHING } from '../../../helpers/app.ts'
import { Shopper, svcRequest, type Json } from '../../../helpers/shopper.ts'
import { asAdmin, login, neverExhaustedCounter, USERS, type Login } from '../../../helpers/security.ts'
import { appBackends, type TestStorage } from '../../../helpers/storage-backends.ts'

/**
 * Helpers for the Pro edition's drawer and admin routes (test/drawer/plugins/svc-pro/): the whole Pro app on each storage backend with
 * the demo shop (seed/demo-catalog.ts), its admin and shopper, a clock the tests set, and a shopper who talks to both
 * the Store API and `svc/v1` with one Cart-Token. Expected values are written out from the design (§3.7) and the
 * issue, not imported from the plugin.
 */

/** The app's clock: fixed, so that weekday and date conditions are deterministic. */
export class Clock {
  /** Wednesday 3 June 2026, noon UTC. */
  static readonly START = new Date('2026-06-03T12:00:00.000Z')
  #now = Clock.START

  now = (): Date => new Date(this.#now.getTime())
  set (iso: string | Date): void { this.#now = new Date(iso) }
  advance (ms: number): void { this.#now = new Date(this.#now.getTime() + ms) }
  reset (): void { this.#now = Clock.START }
}

export interface ProApp {
  app: FastifyInstance
  storage: Storage
  clock: Clock
  /** The seeded admin (capabilities manage_shop, read), logged in at the start time. */
  admin: Login
  /** The seeded shopper's credentials (capability read). */
  shopper: { email: string, password: string }
  backend: string
}

/**
 * The whole app (Pro unless told otherwise) on `storage`, seeded with the demo shop and users, on the test's clock.
 * Rate limits never run out (their own suite tests them), so one app can serve a whole file.
 */
export async function buildProApp (t: Test, storage: Storage, edition: 'pro' | 'free' = 'pro'): Promise<Omit<ProApp, 'backend'>> {
  await seedDemoUsers(storage, USERS, TEST_PASSWORD_HASHING)
  const rateCounter = neverExhaustedCounter()
  t.teardown(() => rateCounter.close())
  const clock = new Clock()
  const app = await buildTestApp(t, storage, { edition, rateCounter, now: clock.now, sessions: TEST_LONG_SESSIONS })
  return { app, storage, clock, admin: await login(app, USERS.admin), shopper: USERS.shopper }
}

/**
 * One top-level test per storage backend (PGlite always, PostgreSQL with DATABASE_URL), each with its own fresh,
 * seeded database and Pro app.
 */
export function onEveryBackend (name: string, body: (t: Test, pro: ProApp & { storage: TestStorage }) => Promise<void>): void {
  for (const backend of appBackends()) {
    test(`${name} (${backend.name})`, { skip: backend.skip }, async (t) => {
      const storage = await backend.create()
      t.teardown(() => storage.dispose())
      const pro = await buildProApp(t, storage)
      await body(t, { ...pro, storage, backend: backend.name })
    })
  }
}

/** Saves Pro settings through the settings service (must be valid) and restores the defaults when the test ends. */
export async function configure (t: Test, app: FastifyInstance, patch: Json): Promise<void> {
  const result = await app.settings.save(patch)
  if (!result.ok) throw new Error(`settings not saved: ${JSON.stringify(result)}`)
  t.teardown(async () => { await app.settings.reset() })
}

/** A user of its own (so that no other test's saved cart is theirs), with the given capabilities. */
export async function newUser (storage: Storage, name: string, capabilities: string[]): Promise<{ email: string, password: string }> {
  const who = { email: `${name}@shop.test`, password: `${name}-password-1` }
  await storage.ensureUser({ email: who.email, displayName: name, passwordHash: await hashPassword(who.password, TEST_PASSWORD_HASHING), capabilities })
  return who
}

/** Logs in from a browser that holds a guest Cart-Token: the guest's cart joins the user's saved cart. */
export async function loginWithCart (app: FastifyInstance, who: { email: string, password: string }, cartToken: string): Promise<Login> {
  const response = await app.inject({ method: 'POST', url: '/account/login', payload: who, headers: { 'cart-token': cartToken } })
  if (response.statusCode !== 200) throw new Error(`login of ${who.email} failed: ${response.statusCode} ${response.body}`)
  const body = response.json() as { nonce: string, user: { id: number } }
  return { cookie: response.cookies.map(({ name, value }) => `${name}=${value}`).join('; '), nonce: body.nonce, userId: body.user.id }
}

/** A shopper: the Store API and `svc/v1` with the same Cart-Token (and, logged in, the session cookie and nonce). */

/** A request to an admin route of `svc/v1` as the logged-in admin. */
export function adminRequest (pro: Pick<ProApp, 'app' | 'admin'>, method: InjectOptions['method'], path: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return svcRequest(pro.app, method, path, asAdmin(pro.admin), payload)
}

/** The body of `svc/v1`'s errors: `data` with its `status`. */
export function errorData (response: LightMyRequestResponse): Json {
  return (response.json() as { data: Json }).data
}

/** `[product id, variation id, quantity]` of each line of a drawer cart state, in order. */
export function linesOf (state: Json): Array<[number, number, number]> {
  return state.cartItems.map((item: Json) => [item.product_id, item.variation_id, item.quantity])
}

/** The keys of the drawer state's lines of one product, in cart order. */
export function keysOf (state: Json, productId: number): string[] {
  return state.cartItems.filter((item: Json) => item.product_id === productId).map((item: Json) => item.key)
}

/** A condition group of `match: all`. */
export const all = (...conditions: unknown[]) => ({ match: 'all', conditions })
export const any = (...conditions: unknown[]) => ({ match: 'any', conditions })
export const condition = (type: string, operator: string, value: unknown) => ({ type, operator, value })

/** The demo shop's currency block (test/helpers/currency.ts). */
export { USD } from '../../../helpers/currency.ts'

export const HOUR = 3_600_000
export const DAY = 24 * HOUR

export { USERS }

export { Shopper, svcRequest, type Json }
