import { createHash, randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { restError } from '../../../kernel/errors/index.ts'
import type { IdempotencyStore } from '../../../storage/contract/index.ts'

/**
 * Idempotent writes: a route that declares `config: { idempotent: true }` takes an `Idempotency-Key` header. The first
 * request with a key claims it in an `IdempotencyStore`, runs, and keeps its answer (status, body, the headers that
 * matter); a repeat with the same key, method, path and body, for the same client, is sent that answer again
 * (`Idempotent-Replayed: true`) and changes nothing. Another request with the key answers 422
 * `svc_idempotency_key_reused`. A repeat that comes while the first still runs waits for its answer (up to
 * `IDEMPOTENCY_WAIT_MS`, then 409 `svc_idempotency_key_in_use` with `Retry-After: 1`). A 5xx is not kept: its key is
 * given up and a retry runs again. Only requests that reach the route's handler claim a key: a refusal of the request
 * rules (origin, token, nonce, rate limit, invalid body) keeps nothing.
 *
 * Each host scope installs it once for its routes (`installIdempotency`), with the identity its requests act for: the
 * drawer for `svc/v1` (the security plugin), the reference platform for its Store API.
 */

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
/** Sent, `true`, with an answer that is a kept one. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed'
/** How long a key's answer is kept after its first request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000
/**
 * How long a claim holds a key while its request runs: a request still unanswered after this long (its instance
 * stopped) no longer holds it, and a repeat runs again.
 */
export const IDEMPOTENCY_LOCK_MS = 60_000
/** How long a repeat waits for the first request with its key to answer, looking every `POLL_MS`, before a 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000
const POLL_MS = 50

/** 1 to 255 visible ASCII characters. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/
/** The answer's headers kept with it (the others, such as rate-limit counts and nonces, are each answer's own). */
const KEPT_HEADERS = ['content-type', 'cart-token', 'cart-hash', 'location'] as const

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes an `Idempotency-Key` (drawer/plugins/idempotency/): declared by cart-changing writes. */
    idempotent?: boolean
  }
}

export interface IdempotencyOptions {
  store: IdempotencyStore
  /**
   * Who the request acts for, which scopes its keys (`cartIdentity`): one shopper's key never answers another's
   * request. Null when it names no one (no cart yet, no login): the key is not used, as its repeat would start a cart
   * of its own anyway.
   */
  identify: (request: FastifyRequest) => string | null | Promise<string | null>
  /** The clock (tests move it). Default: the system clock. */
  now?: () => Date
  /** Which of the routes that declare `idempotent` this scope serves (by URL). Default: all of them. */
  routes?: (url: string) => boolean
  /** How long a repeat waits for a running first request (default `IDEMPOTENCY_WAIT_MS`). */
  waitMs?: number
}

/** The identity a cart's request acts for: the cart and the logged-in user (0 for a guest). */
export function cartIdentity (cartKey: string, userId: number | null): string {
  return `cart:${cartKey}:user:${userId ?? 0}`
}

/** The identity of a logged-in user's request that names no cart. */
export function userIdentity (userId: number): string {
  return `user:${userId}`
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Claim {
  id: string
  owner: string
  settled: boolean
}

type Hook = (...args: any[]) => unknown
const hooksOf = (hooks: unknown): Hook[] => hooks === undefined ? [] : Array.isArray(hooks) ? hooks as Hook[] : [hooks as Hook]

/**
 * Adds idempotency to the routes of `scope` that declare `config: { idempotent: true }` and are added after this call:
 * hooks of their own, run after the scope's (so after its access, nonce and rate-limit checks).
 */
export function installIdempotency (scope: FastifyInstance, options: IdempotencyOptions): void {
  const now = options.now ?? (() => new Date())
  const waitMs = options.waitMs ?? IDEMPOTENCY_WAIT_MS
  const keys = new WeakMap<FastifyRequest, { key: string, fingerprint: string }>()
  const claims = new WeakMap<FastifyRequest, Claim | 'replayed'>()

  /** Reads and checks the key, and fingerprints the request as it came (the body before validation changes it). */
  async function readKey (request: FastifyRequest): Promise<void> {
    const header = request.headers['idempotency-key']
    if (header === undefined) return
    const key = Array.isArray(header) ? header.join(', ') : header
    if (!VALID_KEY.test(key)) throw restError('svc_idempotency_key_invalid')
    const body = request.body === undefined ? '' : JSON.stringify(request.body)
    keys.set(request, { key, fingerprint: sha256(`${request.method} ${request.url}\n${body}`) })
  }

  async function claim (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const read = keys.get(request)
    if (read === undefined) return
    const identity = await options.identify(request)
    if (identity === null) return
    const id = sha256(`${identity}\n${read.key}`)
    const owner = randomUUID()
    const claimKey = () => {
      const at = now().getTime()
      return options.store.claimIdempotencyKey({
        id,
        fingerprint: read.fingerprint,
        owner,
        now: new Date(at).toISOString(),
        lockedUntil: new Date(at + IDEMPOTENCY_LOCK_MS).toISOString(),
        expiresAt: new Date(at + IDEMPOTENCY_KEY_TTL_MS).toISOString()
      })
    }
    let found = await claimKey()
    // A repeat of a request still running waits for its answer (on any instance: the store is looked at again), or
    // runs itself when the first gave the key up (a 5xx) or stopped holding it.
    const until = Date.now() + waitMs
    while (found.state === 'running' && found.fingerprint === read.fingerprint && Date.now() < until) {
      await sleep(POLL_MS)
      found = await claimKey()
    }
    if (found.state === 'claimed') {
      claims.set(request, { id, owner, settled: false })
      return
    }
    if (found.fingerprint !== read.fingerprint) throw restError('svc_idempotency_key_reused')
    if (found.state === 'running') throw restError('svc_idempotency_key_in_use', undefined, undefined, { 'Retry-After': '1' })
    claims.set(request, 'replayed')
    reply.code(found.answer.status).headers(found.answer.headers).header(IDEMPOTENT_REPLAYED_HEADER, 'true')
    return reply.send(found.answer.body)
  }

  /** Gives the key up (the next request with it runs); a store that cannot be reached leaves it until its lock ends. */
  async function release (request: FastifyRequest, held: Claim): Promise<void> {
    held.settled = true
    try {
      await options.store.releaseIdempotencyKey(held.id, held.owner)
    } catch (error) {
      request.log.error({ err: error }, 'an idempotency key could not be given up: it is held until its lock ends')
    }
  }

  /** Keeps the answer, before it is sent: a retry that follows it finds it. A 5xx, or a body that is not text, is not kept. */
  async function keep (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const held = claims.get(request)
    if (held === undefined || held === 'replayed' || held.settled) return payload
    if (reply.statusCode >= 500 || (payload != null && typeof payload !== 'string')) {
      await release(request, held)
      return payload
    }
    held.settled = true
    const headers: Record<string, string> = {}
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name)
      if (value !== undefined) headers[name] = String(value)
    }
    try {
      await options.store.completeIdempotencyKey(held.id, held.owner, { status: reply.statusCode, headers, body: (payload as string | null | undefined) ?? '' })
    } catch (error) {
      request.log.error({ err: error }, 'the answer of an idempotency key could not be kept')
    }
    return payload
  }

  /** An answer that never reached `keep` (a hook before it threw) gives its key up. */
  async function settle (request: FastifyRequest): Promise<void> {
    const held = claims.get(request)
    if (held !== undefined && held !== 'replayed' && !held.settled) await release(request, held)
  }

  scope.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.idempotent !== true || options.routes?.(route.url) === false) return
    route.preValidation = [...hooksOf(route.preValidation), readKey] as RouteOptions['preValidation']
    route.preHandler = [...hooksOf(route.preHandler), claim] as RouteOptions['preHandler']
    route.onSend = [...hooksOf(route.onSend), keep] as RouteOptions['onSend']
    route.onResponse = [...hooksOf(route.onResponse), settle] as RouteOptions['onResponse']
  })
}
