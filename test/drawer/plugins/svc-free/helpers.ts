import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { seedDemoUsers } from '../../../../seed/seed.ts'
import type { Storage } from '../../../../storage/contract/index.ts'
import { buildTestApp, TEST_PASSWORD_HASHING } from '../../../helpers/app.ts'
import { Shopper, svcRequest, type Json } from '../../../helpers/shopper.ts'
import { asAdmin, login, neverExhaustedCounter, USERS, type Login } from '../../../helpers/security.ts'
import { appBackends, type TestStorage } from '../../../helpers/storage-backends.ts'

/**
 * Helpers for the Free edition's `svc/v1` routes (test/drawer/plugins/svc-free/): the whole Free app on each storage backend with
 * the demo shop, its admin and shopper, and a shopper who talks to both the Store API and `svc/v1` with one
 * Cart-Token. Expected values are written out from the specification and the design, not imported from the plugin.
 */

export interface FreeApp {
  app: FastifyInstance
  storage: Storage
  /** The seeded admin, logged in. */
  admin: Login
}

/**
 * The whole Free app on `storage`, seeded with the demo shop and users; the admin logged in. Rate limits never run
 * out (their own suite tests them), so one app can serve a whole file.
 */
export async function buildFreeApp (t: Test, storage: Storage): Promise<FreeApp> {
  await seedDemoUsers(storage, USERS, TEST_PASSWORD_HASHING)
  const rateCounter = neverExhaustedCounter()
  t.teardown(() => rateCounter.close())
  const app = await buildTestApp(t, storage, { edition: 'free', rateCounter })
  return { app, storage, admin: await login(app, USERS.admin) }
}

/**
 * One top-level test per storage backend (PGlite always, PostgreSQL with DATABASE_URL; under CI=true a missing
 * DATABASE_URL fails the PostgreSQL one), each with its own fresh, seeded database and app.
 */
export function onEveryBackend (name: string, body: (t: Test, free: FreeApp & { backend: string, storage: TestStorage }) => Promise<void>): void {
  for (const backend of appBackends()) {
    test(`${name} (${backend.name})`, { skip: backend.skip }, async (t) => {
      const storage = await backend.create()
      t.teardown(() => storage.dispose())
      const free = await buildFreeApp(t, storage)
      await body(t, { ...free, storage, backend: backend.name })
    })
  }
}

/** A shopper: the Store API and `svc/v1` with the same Cart-Token. */

/** A request to an admin route of `svc/v1` as the logged-in admin. */
export function adminRequest (free: Pick<FreeApp, 'app' | 'admin'>, method: InjectOptions['method'], path: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return svcRequest(free.app, method, path, asAdmin(free.admin), payload)
}

/** The settings as `GET settings` answers them (200 expected). */
export async function currentSettings (free: Pick<FreeApp, 'app' | 'admin'>): Promise<{ settings: Json, version: number }> {
  const response = await adminRequest(free, 'GET', 'settings')
  if (response.statusCode !== 200) throw new Error(`GET settings: ${response.statusCode} ${response.body}`)
  return response.json()
}

/** Saves settings as the admin (200 expected) and puts the defaults back when the (sub)test ends. */
export async function withSettings (t: Test, free: Pick<FreeApp, 'app' | 'admin'>, patch: Json): Promise<void> {
  const response = await adminRequest(free, 'POST', 'settings', { settings: patch })
  if (response.statusCode !== 200) throw new Error(`POST settings: ${response.statusCode} ${response.body}`)
  t.teardown(async () => {
    const reset = await adminRequest(free, 'DELETE', 'settings')
    if (reset.statusCode !== 200) throw new Error(`DELETE settings: ${reset.statusCode} ${reset.body}`)
  })
}

/** The body of `svc/v1`'s errors: `data` with its `status`. */
export function errorData (response: LightMyRequestResponse): Json {
  return (response.json() as { data: Json }).data
}

/** A key in the cart item key format (32 hex characters) that names no line. */
export function absentKey (seed: number): string {
  return seed.toString(16).padStart(32, '0')
}

const MINOR_UNITS = /^-?\d+$/

/** Every money field of a drawer cart state: a string of minor units. */
export function moneyFields (state: Json): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const name of ['cartTotal', 'cartSubtotal', 'cartTax', 'cartDiscount']) fields[name] = state[name]
  if (state.cartShipping !== null) fields.cartShipping = state.cartShipping
  state.cartItems.forEach((item: Json, index: number) => {
    for (const [name, value] of Object.entries({ ...item.prices, ...item.totals })) fields[`cartItems.${index}.${name}`] = value
  })
  state.coupons.forEach((coupon: Json, index: number) => {
    fields[`coupons.${index}.discount`] = coupon.discount
    fields[`coupons.${index}.discountTax`] = coupon.discountTax
  })
  state.cartFees.forEach((fee: Json, index: number) => {
    fields[`cartFees.${index}.total`] = fee.total
    fields[`cartFees.${index}.totalTax`] = fee.totalTax
  })
  return fields
}

/** The money fields that are not minor-unit strings (none expected). */
export function badMoney (state: Json): string[] {
  return Object.entries(moneyFields(state))
    .filter(([, value]) => typeof value !== 'string' || !MINOR_UNITS.test(value))
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
}

/** The keys of the drawer's cart state (design §3.7), in order. */
export const DRAWER_STATE_KEYS = ['cartItems', 'cartCount', 'cartTotal', 'cartSubtotal', 'cartFees', 'cartTax', 'coupons',
  'currency', 'optionalLockedKeys', 'cartHash', 'cartDiscount', 'cartShipping', 'errors', 'rewards']

/** The demo shop's currency block (test/helpers/currency.ts). */
export { USD } from '../../../helpers/currency.ts'

export const BLUE_LARGE = [{ attribute: 'pa_color', value: 'blue' }, { attribute: 'pa_size', value: 'large' }]

export { Shopper, svcRequest, type Json }
