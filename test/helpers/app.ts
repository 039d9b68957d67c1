import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp, type AppOptions } from '../../app.ts'
import { demoShopConfig } from '../../seed/demo-config.ts'
import { seedDemoShop } from '../../seed/seed.ts'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import type { Storage } from '../../storage/types.ts'

export const TEST_SECRET = 'test-secret-that-is-at-least-32-bytes-long'
export const SITE_URL = 'http://shop.test'
export const STORE_API = '/wp-json/wc/store/v1'

interface Teardown {
  teardown (fn: () => unknown): void
}

/** The whole app on the given storage, seeded with the demo shop, closed when the test ends. */
export async function buildTestApp (t: Teardown, storage: Storage, options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  await seedDemoShop(storage, SITE_URL)
  const rateCounter = createMemoryRateCounter()
  const app = await buildApp({
    storage,
    rateCounter,
    secrets: [TEST_SECRET],
    siteUrl: SITE_URL,
    shop: demoShopConfig,
    ...options
  })
  t.teardown(async () => {
    await app.close()
    await rateCounter.close()
  })
  await app.ready()
  return app
}

/** A shopper talking to the Store API with the Cart-Token the server last gave them. */
export class StoreApiClient {
  token: string | undefined
  readonly #app: FastifyInstance

  constructor (app: FastifyInstance) {
    this.#app = app
  }

  async request (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const options: InjectOptions = {
      method,
      url: `${STORE_API}/${path}`,
      headers: { ...(this.token ? { 'cart-token': this.token } : {}), ...headers }
    }
    if (body !== undefined) options.payload = body as InjectOptions['payload']
    const response = await this.#app.inject(options)
    const token = response.headers['cart-token']
    if (typeof token === 'string') this.token = token
    return response
  }

  cart () { return this.request('GET', 'cart') }
  add (id: number, quantity = 1, variation?: Array<{ attribute: string, value: string }>) {
    return this.request('POST', 'cart/add-item', { id, quantity, ...(variation ? { variation } : {}) })
  }
}
