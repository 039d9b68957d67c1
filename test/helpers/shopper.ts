import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { StoreApiClient } from './app.ts'
import { asGuest, SVC, type Login } from './security.ts'

export type Json = Record<string, any>

/** A `svc/v1` request (`path` without the leading slash) with the given headers. */
export function svcRequest (app: FastifyInstance, method: InjectOptions['method'], path: string, headers: Record<string, string>, payload?: unknown): Promise<LightMyRequestResponse> {
  const options: InjectOptions = { method, url: `${SVC}/${path}`, headers }
  if (payload !== undefined) options.payload = payload as InjectOptions['payload']
  return app.inject(options)
}

/**
 * A shopper: the Store API and `svc/v1` with the same Cart-Token. Logged in, Store API and svc requests carry the
 * session cookie, svc requests the nonce too.
 */
export class Shopper {
  readonly store: StoreApiClient
  readonly #app: FastifyInstance
  /** Sent with every svc request besides the Cart-Token (a login's cookie and nonce). */
  readonly #headers: Record<string, string>

  private constructor (app: FastifyInstance, store: StoreApiClient, headers: Record<string, string>) {
    this.#app = app
    this.store = store
    this.#headers = headers
  }

  /** A new guest with an empty cart (the Cart-Token comes from `GET wc/store/v1/cart`, as a browser gets it). */
  static async guest (app: FastifyInstance): Promise<Shopper> {
    return Shopper.#start(app, {}, {})
  }

  /** A logged-in visitor (shopper or admin) with their own cart. */
  static async loggedIn (app: FastifyInstance, session: Login): Promise<Shopper> {
    return Shopper.#start(app, { cookie: session.cookie }, { cookie: session.cookie, 'x-wp-nonce': session.nonce })
  }

  static async #start (app: FastifyInstance, storeHeaders: Record<string, string>, svcHeaders: Record<string, string>): Promise<Shopper> {
    const store = new StoreApiClient(app)
    const response = await store.request('GET', 'cart', undefined, storeHeaders)
    if (response.statusCode !== 200 || store.token === undefined) throw new Error(`no Cart-Token: ${response.statusCode}`)
    return new Shopper(app, store, svcHeaders)
  }

  get token (): string {
    return this.store.token!
  }

  /** A request to `svc/v1` (`path` without the leading slash). */
  svc (method: InjectOptions['method'], path: string, payload?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return svcRequest(this.#app, method, path, { ...asGuest(this.token), ...this.#headers, ...headers }, payload)
  }

  /** A `svc/v1` request that must answer 200; its body. */
  async ok (method: InjectOptions['method'], path: string, payload?: unknown): Promise<any> {
    const response = await this.svc(method, path, payload)
    if (response.statusCode !== 200) throw new Error(`${String(method)} ${path}: ${response.statusCode} ${response.body}`)
    return response.json()
  }

  /** The drawer's cart state (`GET svc/v1/cart`, 200 expected). */
  async drawerCart (): Promise<Json> {
    return this.ok('GET', 'cart')
  }

  addBundle (bundleId: string, productIds: number[]): Promise<LightMyRequestResponse> {
    return this.svc('POST', 'bundle-builder/add', { bundle_id: bundleId, product_ids: productIds })
  }

  /** A Store API request with this shopper's Cart-Token (and cookie when logged in). */
  storeRequest (method: 'GET' | 'POST', path: string, body?: unknown): Promise<LightMyRequestResponse> {
    const cookie = this.#headers.cookie
    return this.store.request(method, path, body, cookie === undefined ? {} : { cookie })
  }

  /** The Store API cart and its Cart-Hash header (200 expected). */
  async storeCart (): Promise<{ cart: Json, hash: string }> {
    const response = await this.storeRequest('GET', 'cart')
    if (response.statusCode !== 200) throw new Error(`Store API cart: ${response.statusCode}`)
    return { cart: response.json(), hash: String(response.headers['cart-hash']) }
  }

  /** Adds through the Store API (201 expected). */
  async add (id: number, quantity = 1, variation?: Array<{ attribute: string, value: string }>): Promise<Json> {
    return this.#storeChange('cart/add-item', { id, quantity, ...(variation ? { variation } : {}) }, 201)
  }

  /** Sets a line's quantity through the Store API (200 expected). */
  async update (key: string, quantity: number): Promise<Json> {
    return this.#storeChange('cart/update-item', { key, quantity })
  }

  /** Removes a line through the Store API (200 expected). */
  async remove (key: string): Promise<Json> {
    return this.#storeChange('cart/remove-item', { key })
  }

  /** Applies a coupon through the Store API (200 expected). */
  async coupon (code: string): Promise<Json> {
    return this.#storeChange('cart/apply-coupon', { code })
  }

  async #storeChange (path: string, body: Json, status = 200): Promise<Json> {
    const response = await this.storeRequest('POST', path, body)
    if (response.statusCode !== status) throw new Error(`${path} ${JSON.stringify(body)}: ${response.statusCode} ${response.body}`)
    return response.json()
  }
}
