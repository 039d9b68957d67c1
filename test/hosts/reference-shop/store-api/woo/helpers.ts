import type { FastifyInstance } from 'fastify'
import { buildTestApp, StoreApiClient, STORE_API } from '../../../../helpers/app.ts'
import { createTestPgliteStorage } from '../../../../helpers/pglite.ts'
import type { Teardown } from '../../../../helper.ts'

export { STORE_API, StoreApiClient }

/** The whole app on a fresh PGlite database with the demo shop (10 % tax, $5 flat-rate shipping). */
export async function wooApp (t: Teardown): Promise<FastifyInstance> {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  return buildTestApp(t, storage)
}

/** A shopper with a cart holding `lines` ([id, quantity]) and the coupons, through the Store API with its Cart-Token. */
export async function shopperWith (app: FastifyInstance, lines: Array<[number, number]>, coupons: string[] = []): Promise<StoreApiClient> {
  const shopper = new StoreApiClient(app)
  for (const [id, quantity] of lines) await shopper.add(id, quantity)
  for (const code of coupons) await shopper.request('POST', 'cart/apply-coupon', { code })
  return shopper
}
