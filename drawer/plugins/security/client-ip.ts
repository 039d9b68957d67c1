import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import type { FastifyRequest } from 'fastify'
import proxyAddr from 'proxy-addr'
import { restError } from '../../../kernel/errors/index.ts'

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

/** The eight 16-bit groups of an IPv6 address (a zone index dropped), or null when it is not one. */
function ipv6Groups (address: string): number[] | null {
  const bare = address.replace(/%.*$/s, '').toLowerCase()
  if (isIP(bare) !== 6) return null
  let text = bare
  // An IPv4 tail (`::ffff:192.0.2.1`) is the last two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (tail !== null) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', rest] = text.split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':')
  const groups = rest === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - restGroups.length).fill('0'), ...restGroups]
  return groups.map((group) => Number.parseInt(group, 16))
}

/** An IPv4-mapped IPv6 address's IPv4 address (`::ffff:192.0.2.1`, `::ffff:c000:201`), else null. */
function mappedIpv4 (groups: readonly number[]): string | null {
  if (groups.slice(0, 5).some((group) => group !== 0) || groups[5] !== 0xffff) return null
  const [high = 0, low = 0] = groups.slice(6)
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
}

/** The longest text of an address that is not one (a peer the socket no longer knows, a made-up test value) that is kept. */
const MAX_OTHER = 64

/** The client's address and what rate limits count it as. */
export interface ClientAddress {
  /** The address: IPv4 as it is, IPv4-mapped IPv6 as its IPv4 address, other IPv6 in lower case. */
  ip: string
  /**
   * What every rate limit counts: an IPv4 address whole, an IPv6 address's /64 (`2001:db8:0:1::/64`), which one
   * host or household usually holds whole and can change its address within for free.
   */
  bucket: string
}

/** The address and its rate-limit bucket (see `ClientAddress`); anything that is not an address counts as itself. */
export function addressBucket (address: string | undefined): ClientAddress {
  const text = address ?? ''
  if (isIP(text) === 4) return { ip: text, bucket: text }
  const groups = ipv6Groups(text)
  if (groups === null) {
    const other = `other:${text.slice(0, MAX_OTHER)}`
    return { ip: other, bucket: other }
  }
  const ipv4 = mappedIpv4(groups)
  if (ipv4 !== null) return { ip: ipv4, bucket: ipv4 }
  return { ip: text.replace(/%.*$/s, '').toLowerCase(), bucket: `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64` }
}

/**
 * The client's address: the socket peer, unless the peer is a trusted proxy; then the right-most address of
 * `X-Forwarded-For` that is not a trusted proxy. From an untrusted peer, `X-Forwarded-For` is ignored.
 */
export function clientAddress (raw: IncomingMessage, trust: TrustFunction): ClientAddress {
  return addressBucket(proxyAddr(raw, trust))
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

/** Where the trusted proxies come from: the configured ranges, passed through the filter `svc_rest_trusted_proxy_cidrs`. */
export interface TrustedProxySource {
  /** The configured ranges (the app's `trustedProxyCidrs`): the filter's default value. */
  cidrs?: readonly string[]
  /** Runs `svc_rest_trusted_proxy_cidrs` over the default value. */
  filter: (cidrs: string[]) => unknown
}

export type ClientAddressOf = (request: FastifyRequest) => Promise<ClientAddress>

/**
 * The one way every rate limit finds its client (`svc/v1`, the Store API, login): the trusted proxies are the filter
 * `svc_rest_trusted_proxy_cidrs` over the configured ranges, read on each request. A list that is not valid throws
 * 503 `svc_rate_limit_unavailable` (the limit cannot tell clients apart, so it refuses rather than guess) and is
 * logged. Found once per request.
 */
export function clientAddressResolver (source: TrustedProxySource): ClientAddressOf {
  const proxies = new TrustedProxyCache()
  const found = new WeakMap<FastifyRequest, ClientAddress>()
  return async (request) => {
    const known = found.get(request)
    if (known !== undefined) return known
    let address: ClientAddress
    try {
      const value = await source.filter([...(source.cidrs ?? [])])
      address = clientAddress(request.raw, proxies.get(Array.isArray(value) ? value : [value]))
    } catch (error) {
      request.log.error({ err: error }, 'svc_rest_trusted_proxy_cidrs is not a valid list of proxy ranges')
      throw restError('svc_rate_limit_unavailable', undefined, undefined, { 'Retry-After': '60' })
    }
    found.set(request, address)
    return address
  }
}
