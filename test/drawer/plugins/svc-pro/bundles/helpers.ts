import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import type { AppOptions } from '../../../../../app.ts'
import { seedDemoUsers } from '../../../../../seed/seed.ts'
import type { Storage } from '../../../../../storage/contract/index.ts'
import { buildTestApp, TEST_PASSWORD_HASHING } from '../../../../helpers/app.ts'
import { Shopper, svcRequest, type Json } from '../../../../helpers/shopper.ts'
import { login, neverExhaustedCounter, SVC, USERS, type Login } from '../../../../helpers/security.ts'
import { appBackends } from '../../../../helpers/storage-backends.ts'

/**
 * Helpers for the bundle builder (test/drawer/plugins/svc-pro/bundles/): the whole app on each storage backend with the demo shop
 * (seed/demo-catalog.ts) and its users, bundles configured through `app.settings.save`, and a shopper who talks to
 * both the Store API and `svc/v1` with one Cart-Token. Expected values are written out here, not imported from the
 * plugin.
 */

export interface BundlesApp {
  app: FastifyInstance
  storage: Storage
  backend: string
  /** The seeded admin, logged in. */
  admin: Login
}

/** The demo bundles the tests configure (product ids of the demo catalog). */
export const DEMO_BUNDLES = [
  {
    id: 'starter',
    title: 'Starter kit',
    description: 'A hat and an extra.',
    discount_percent: 10,
    // 109 Polo is out of stock; 114 Poster is a draft; 116 Gift Wrap is hidden from the catalog.
    slots: [{ label: 'Hat', product_ids: [101, 103, 109] }, { label: 'Extra', product_ids: [102, 104, 116, 114] }]
  },
  {
    id: 'music',
    title: 'Tee and music',
    description: '',
    discount_percent: 20,
    // 108 Long Sleeve Tee: 3 in stock; 112 Album is sold individually; 113 Single is sold in packs of 2 to 10.
    slots: [{ label: 'Tee', product_ids: [108] }, { label: 'Music', product_ids: [112, 113] }]
  },
  {
    id: 'layers',
    title: 'Layers',
    description: 'A cap first, then the last tees.',
    discount_percent: 0,
    slots: [{ label: 'Cap', product_ids: [103] }, { label: 'Tee', product_ids: [108] }]
  },
  {
    id: 'sold-out',
    title: 'Sold out',
    description: 'Nothing in the first slot can be added now.',
    discount_percent: 50,
    // 109 out of stock, 1061 a variation, 119 no price, 115 private, 114 draft.
    slots: [{ label: 'Nothing', product_ids: [109, 1061, 119, 115, 114] }, { label: 'Cap', product_ids: [103] }]
  }
]

/** Stores the bundles section (200 expected). */
export async function saveBundles (app: FastifyInstance, bundles: { enabled?: boolean, bundles?: unknown[] }): Promise<void> {
  const saved = await app.settings.save({ bundles })
  if (!saved.ok) throw new Error(`settings.save: ${JSON.stringify(saved)}`)
}

/**
 * One top-level test per storage backend (PGlite always, PostgreSQL with DATABASE_URL), each with a fresh seeded
 * database and the whole app (Pro unless told otherwise) with the demo bundles saved. Rate limits never run out.
 */
export function onEveryBackend (name: string, body: (t: Test, ctx: BundlesApp) => Promise<void>, options: Partial<AppOptions> = {}): void {
  for (const backend of appBackends()) {
    test(`${name} (${backend.name})`, { skip: backend.skip }, async (t) => {
      const storage = await backend.create()
      t.teardown(() => storage.dispose())
      await seedDemoUsers(storage, USERS, TEST_PASSWORD_HASHING)
      const rateCounter = neverExhaustedCounter()
      t.teardown(() => rateCounter.close())
      const app = await buildTestApp(t, storage, { edition: 'pro', rateCounter, ...options })
      if ((options.edition ?? 'pro') === 'pro') await saveBundles(app, { enabled: true, bundles: DEMO_BUNDLES })
      await body(t, { app, storage, backend: backend.name, admin: await login(app, USERS.admin) })
    })
  }
}

/** A shopper: the Store API and `svc/v1` with the same Cart-Token (a guest, or logged in with cookie and nonce). */

/** A public request to `svc/v1` (no Cart-Token). */
export function publicRequest (app: FastifyInstance, path: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: `${SVC}/${path}`, headers })
}

/** The ids of a list of product cards. */
export const idsOf = (cards: Json[]): number[] => cards.map((card) => card.id)

/** `{id: [slot product ids…]}` of a configs answer. */
export function slotIds (configs: Json[]): Record<string, number[][]> {
  return Object.fromEntries(configs.map((bundle) => [bundle.id, bundle.slots.map((slot: Json) => idsOf(slot.products))]))
}

/** What identifies a Store API cart's contents: line keys, products, quantities, totals, coupons. */
export function cartSnapshot (cart: Json): Json {
  return {
    items: cart.items.map((item: Json) => ({ key: item.key, id: item.id, quantity: item.quantity, totals: item.totals })),
    totals: cart.totals,
    coupons: cart.coupons
  }
}

export { Shopper, svcRequest, type Json }
