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

async function send (url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { credentials: 'same-origin', ...init })
  } catch {
    throw new ApiError(0, 'network', '')
  }
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

  /** A Store API cart route (`update-item`…) on the token's cart; the answer's fresh token is kept. */
  async store<T> (method: Method, path: string, body?: unknown): Promise<T> {
    if (this.#own) return this.svc<T>(method, `store/${path}`, body)
    if (this.#token === null) await this.loadToken()
    const response = await send(this.#url(`wc/store/v1/${path}`), {
      method,
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...(this.#token ? { 'Cart-Token': this.#token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    this.#remember(response)
    return json<T>(response)
  }

  /** A cart-session `svc/v1` route. */
  async svc<T> (method: Method, path: string, body?: unknown, options: Options = {}, retry = true): Promise<T> {
    if (this.#token === null) await this.loadToken()
    const headers: Record<string, string> = { Accept: 'application/json', 'Cart-Token': this.#token ?? '' }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    if (this.#nonce !== null) headers['X-WP-Nonce'] = this.#nonce
    const response = await send(this.#url(`svc/v1/${path}`), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      keepalive: options.keepalive
    })
    this.#remember(response)
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
