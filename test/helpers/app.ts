import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type { AppOptions } from '../../app.ts'
import type { Storage } from '../../storage/contract/index.ts'
import { build, STORE_API, type Teardown } from '../helper.ts'

export { TEST_SECRET, TEST_PASSWORD_HASHING, TEST_LONG_SESSIONS, SITE_URL, STORE_API } from '../helper.ts'

/** The whole app on the given storage, seeded with the demo shop, closed when the test ends (`build` of test/helper.ts). */
export async function buildTestApp (t: Teardown, storage: Storage, options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  return build(t, { ...options, storage })
}

/** A shopper talking to the Store API with the Cart-Token the server last gave them. */
export class StoreApiClient {
  token: string | undefined
  readonly #app: FastifyInstance

  constructor (app: FastifyInstance) {
    this.#app = app
  }

  async request (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    // As the drawer's client: a write goes with the Cart-Token of a first read (a write without one needs a nonce).
    if (this.token === undefined && method !== 'GET') await this.request('GET', 'cart')
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
