/**
 * What the bench measures. A scenario is one request against the app, with whatever state it needs made by
 * `prepare()` on the freshly seeded demo shop. Its baseline is derived from it: the app's answer to that exact
 * request, recorded once, is what a bare Fastify route sends back. Add a scenario to `scenarios` below.
 */
import { expectStatus, send, type BenchRequest, type ProbeResponse } from './http.ts'

export const STORE_API = '/wp-json/wc/store/v1'

export interface Scenario extends BenchRequest {
  name: string
  description: string
  /** Makes the state the request needs; returns headers to add to it (a Cart-Token, say) or its body. */
  prepare: (app: AppClient) => Promise<Partial<Pick<BenchRequest, 'headers' | 'body'>>>
  /** Checks the app's recorded answer, so the bench measures the response it means to (throws if not). */
  check?: (response: ProbeResponse) => void
  /**
   * Whether every answer under load must equal the recorded one byte for byte (default true; a mismatch fails
   * the bench). False for a request whose answer changes from one call to the next, such as a write.
   */
  stableBody?: boolean
}

export interface AppClient {
  origin: string
  send: (request: BenchRequest) => Promise<ProbeResponse>
}

export function appClient (origin: string): AppClient {
  return { origin, send: (request) => send(origin, request) }
}

export interface CartLine {
  id: number
  quantity?: number
  variation?: Array<{ attribute: string, value: string }>
}

function cartToken (response: ProbeResponse, what: string): string {
  const token = response.headers.get('cart-token')
  if (token === null || token === '') throw new Error(`${what}: no Cart-Token header`)
  return token
}

/** `GET cart` with the Cart-Token of a cart holding `lines`, one add-item call per line. */
export function cartScenario (name: string, lines: CartLine[]): Scenario {
  return {
    name,
    description: `GET ${STORE_API}/cart with the Cart-Token of a ${lines.length}-line cart`,
    method: 'GET',
    path: `${STORE_API}/cart`,
    headers: {},
    async prepare (app) {
      const empty = await app.send({ method: 'GET', path: `${STORE_API}/cart`, headers: {} })
      expectStatus(empty, 200, 'GET cart')
      let token = cartToken(empty, 'GET cart')
      for (const line of lines) {
        const added = await app.send({
          method: 'POST',
          path: `${STORE_API}/cart/add-item`,
          headers: { 'Cart-Token': token, 'Content-Type': 'application/json' },
          body: JSON.stringify({ id: line.id, quantity: line.quantity ?? 1, ...(line.variation ? { variation: line.variation } : {}) })
        })
        expectStatus(added, 201, `add-item ${line.id}`)
        token = cartToken(added, `add-item ${line.id}`)
      }
      return { headers: { 'Cart-Token': token } }
    },
    check (response) {
      // An invalid Cart-Token is answered with a new, empty cart and a 200: make sure this is the cart made above.
      const cart = JSON.parse(response.body) as { items?: unknown[] }
      if (cart.items?.length !== lines.length) {
        throw new Error(`${name}: the cart has ${cart.items?.length ?? 'no'} lines, expected ${lines.length}`)
      }
    }
  }
}

export const scenarios: Scenario[] = [
  cartScenario('cart-3-lines', [
    { id: 101 },
    { id: 105 },
    { id: 106, variation: [{ attribute: 'pa_color', value: 'blue' }, { attribute: 'pa_size', value: 'large' }] }
  ])
]
