import type { IncomingMessage } from 'node:http'
import proxyAddr from 'proxy-addr'

export type TrustFunction = (address: string, hop: number) => boolean

/**
 * Compiles a trusted-proxy list (IPv4 and IPv6 addresses and CIDR ranges). Throws on an invalid entry: the caller
 * must then refuse to rate-limit rather than guess.
 */
export function compileTrustedProxies (cidrs: readonly unknown[]): TrustFunction {
  for (const cidr of cidrs) {
    if (typeof cidr !== 'string' || cidr.trim() === '') throw new TypeError(`invalid trusted proxy range: ${JSON.stringify(cidr)}`)
  }
  return proxyAddr.compile((cidrs as string[]).map((cidr) => cidr.trim()))
}

/**
 * The client's address: the socket peer, unless the peer is a trusted proxy; then the right-most address of
 * `X-Forwarded-For` that is not a trusted proxy. From an untrusted peer, `X-Forwarded-For` is ignored.
 */
export function clientIp (raw: IncomingMessage, trust: TrustFunction): string {
  return proxyAddr(raw, trust)
}

/** Caches compiled lists by their content, so an unchanged filter value costs one string join. */
export class TrustedProxyCache {
  #key: string | undefined
  #compiled: TrustFunction | undefined

  get (cidrs: readonly unknown[]): TrustFunction {
    const key = JSON.stringify(cidrs)
    if (key !== this.#key || this.#compiled === undefined) {
      this.#compiled = compileTrustedProxies(cidrs)
      this.#key = key
    }
    return this.#compiled
  }
}
