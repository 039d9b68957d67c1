import type { DrawerPageConfig } from '../schemas/drawer-page-config.ts'
import type { DrawerConfig, LauncherSettings } from '../schemas/settings.ts'
import { ApiError, errorFrom } from './errors.ts'

type Method = 'GET' | 'POST' | 'DELETE'

/** The part of the Store API cart the drawer reads: the settings under `extensions.svc`. */
export interface StoreCart {
  items_count: number
  extensions?: { svc?: { drawer_config?: DrawerConfig, launcher?: LauncherSettings } }
}

interface Options {
  /** Survives the page being closed (analytics on page hide). */
  keepalive?: boolean
}

/**
 * Sends a request. A write (a request with a body, which carries an `Idempotency-Key`) that fails on the way or answers
 * 503 is sent again as it was, 0.75 s and then 1.5 s later: the server applies it once and answers a repeat as it
 * answered the first.
 */
async function send (url: string, init: RequestInit, retries = init.body ? 2 : 0): Promise<Response> {
  try {
    const response = await fetch(url, { credentials: 'same-origin', ...init })
    if (!retries || response.status !== 503) return response
  } catch {
    if (!retries) throw new ApiError(0, 'network', '')
  }
  await new Promise((resolve) => setTimeout(resolve, 1500 / retries))
  return send(url, init, retries - 1)
}

async function json<T> (response: Response): Promise<T> {
  if (!response.ok) throw await errorFrom(response)
  return (response.status === 204 ? null : await response.json()) as T
}

/**
 * The drawer's client for the server (specification §5): the Cart-Token comes from the `Cart-Token` header of the
 * Store API cart (or, on a host without one, of the drawer's own `svc/v1/store/cart`) and goes with every `svc/v1` call; a logged-in shopper adds `X-WP-Nonce`, a guest never does. A
 * refused nonce (403 `svc_invalid_nonce`) is renewed from `GET /account/rest-nonce` once (401 there: the visitor is
 * a guest now, and sends none); a refused token is fetched again once.
 */
export class Api {
  readonly #config: DrawerPageConfig
  #token: string | null = null
  #nonce: string | null
  #loading: Promise<StoreCart> | null = null
  /** The cart routes are the drawer's own (`svc/v1/store/`), under the `svc/v1` rules, not the host's Store API. */
  readonly #own: boolean

  constructor (config: DrawerPageConfig) {
    this.#config = config
    this.#nonce = config.loggedIn ? config.nonce : null
    this.#own = config.storeApi === 'drawer'
  }

  get hasToken (): boolean {
    return this.#token !== null
  }

  #url (path: string): string {
    return this.#config.restRoot + path
  }

  #remember (response: Response): void {
    const token = response.headers.get('Cart-Token')
    if (token) this.#token = token
  }

  /** `GET {restRoot}wc/store/v1/cart` (or `svc/v1/store/cart`): the Cart-Token (and the settings of `extensions.svc`). */
  loadToken (): Promise<StoreCart> {
    this.#loading ??= (async () => {
      try {
        const headers: Record<string, string> = { Accept: 'application/json' }
        if (this.#own && this.#nonce !== null) headers['X-WP-Nonce'] = this.#nonce
        const response = await send(this.#url(this.#own ? 'svc/v1/store/cart' : 'wc/store/v1/cart'), { headers })
        this.#remember(response)
        return await json<StoreCart>(response)
      } finally {
        this.#loading = null
      }
    })()
    return this.#loading
  }

  /**
   * A request on the token's cart (read first when there is none), with the nonce where `svc/v1` takes it; the
   * answer's fresh token is kept.
   */
  async #call (path: string, method: Method, body: unknown, nonce: boolean, keepalive?: boolean): Promise<Response> {
    if (this.#token === null) await this.loadToken()
    const headers: Record<string, string> = { Accept: 'application/json', 'Cart-Token': this.#token ?? '' }
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json'
      // A fresh key (128 random bits) for each change: its retries (`send`) bring the same one.
      headers['Idempotency-Key'] = crypto.getRandomValues(new Uint32Array(4)).join('-')
    }
    if (nonce && this.#nonce !== null) headers['X-WP-Nonce'] = this.#nonce
    const response = await send(this.#url(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), keepalive })
    this.#remember(response)
    return response
  }

  /** A Store API cart route (`update-item`…) on the token's cart. */
  async store<T> (method: Method, path: string, body?: unknown): Promise<T> {
    return this.#own ? this.svc<T>(method, `store/${path}`, body) : json<T>(await this.#call(`wc/store/v1/${path}`, method, body, false))
  }

  /** A cart-session `svc/v1` route. */
  async svc<T> (method: Method, path: string, body?: unknown, options: Options = {}, retry = true): Promise<T> {
    const response = await this.#call(`svc/v1/${path}`, method, body, true, options.keepalive)
    if (response.status === 403 && retry && !options.keepalive) {
      const error = await errorFrom(response)
      if (error.code === 'svc_invalid_nonce') await this.refreshNonce()
      else if (error.code === 'svc_invalid_cart_token') await this.loadToken()
      else throw error
      return this.svc<T>(method, path, body, options, false)
    }
    return json<T>(response)
  }

  /** A public `svc/v1` route: no token, no nonce, so shared caches may keep the answer. */
  async publicGet<T> (path: string): Promise<T> {
    return json<T>(await send(this.#url(`svc/v1/${path}`), { headers: { Accept: 'application/json' } }))
  }

  /** A fresh REST nonce for the logged-in shopper; none once the login is gone. */
  async refreshNonce (): Promise<void> {
    const response = await send(this.#config.nonceUrl, { headers: { Accept: 'application/json' } })
    if (response.status === 401) {
      this.#nonce = null
      return
    }
    this.#nonce = (await json<{ nonce: string }>(response)).nonce
  }
}
