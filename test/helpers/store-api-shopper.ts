import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { STORE_API } from '../helper.ts'
import { StoreApiClient } from './app.ts'

let nextIp = 1

/**
 * A Store API shopper from an address of their own (per-IP rate limits count each shopper apart), with the Cart-Token
 * the server last gave. `start()` reads the cart first, as a Store API client does, to get its token.
 */
export class Shopper extends StoreApiClient {
  readonly ip = `10.18.${Math.floor(nextIp / 250) % 250}.${(nextIp++ % 250) + 1}`
  readonly #app: FastifyInstance

  constructor (app: FastifyInstance) {
    super(app)
    this.#app = app
  }

  static async start (app: FastifyInstance): Promise<Shopper> {
    const shopper = new Shopper(app)
    await shopper.cart()
    return shopper
  }

  override async request (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const options: InjectOptions = {
      method,
      url: `${STORE_API}/${path}`,
      remoteAddress: this.ip,
      headers: { ...(this.token ? { 'cart-token': this.token } : {}), ...headers }
    }
    if (body !== undefined) options.payload = body as InjectOptions['payload']
    const response = await this.#app.inject(options)
    const token = response.headers['cart-token']
    if (typeof token === 'string') this.token = token
    return response
  }
}
