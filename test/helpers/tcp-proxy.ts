import { connect, createServer } from 'node:net'
import type { Socket } from 'node:net'

/**
 * A TCP proxy in front of a real server (PostgreSQL or Redis) that a test can break and mend, so that the shared
 * servers stay up. Three faults:
 * - `cut()`: every open connection is reset and new ones are closed at once, as when the server goes down;
 * - `blackhole()`: nothing is delivered any more and new connections hang, as when the network stops delivering;
 * - `cutOnceWhen(match)`: the connection whose next client packet matches is reset before the packet is delivered
 *   (for example on `COMMIT`), to break a transaction half-way.
 * `restore()` mends all three. The proxy counts what it did, for the figures the tests report.
 */
export interface TcpProxy {
  port: number
  /** `url` with its host and port replaced by the proxy's. */
  urlFor: (url: string) => string
  cut: () => void
  blackhole: () => void
  cutOnceWhen: (match: (clientBytes: Buffer) => boolean) => Promise<void>
  restore: () => void
  readonly state: 'open' | 'cut' | 'blackhole'
  /** Connections reset or refused by a fault, in total. */
  readonly connectionsBroken: number
  close: () => Promise<void>
}

interface Pair {
  client: Socket
  upstream: Socket | null
  flowing: boolean
}

export async function startTcpProxy (targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<Pair>()
  let state: TcpProxy['state'] = 'open'
  let broken = 0
  let trap: { match: (bytes: Buffer) => boolean, fired: () => void } | null = null

  const destroy = (pair: Pair): void => {
    pairs.delete(pair)
    pair.client.destroy()
    pair.upstream?.destroy()
  }

  const flow = (pair: Pair): void => {
    if (pair.flowing || pair.upstream === null) return
    pair.flowing = true
    const { client, upstream } = pair
    client.on('data', (chunk: Buffer) => {
      if (!pair.flowing) return
      if (trap !== null && trap.match(chunk)) {
        const { fired } = trap
        trap = null
        broken++
        destroy(pair)
        fired()
        return
      }
      if (!upstream.write(chunk)) client.pause()
    })
    upstream.on('data', (chunk: Buffer) => {
      if (!pair.flowing) return
      if (!client.write(chunk)) upstream.pause()
    })
    client.on('drain', () => upstream.resume())
    upstream.on('drain', () => client.resume())
    client.resume()
    upstream.resume()
  }

  const stopFlowing = (pair: Pair): void => {
    pair.flowing = false
    pair.client.pause()
    pair.upstream?.pause()
    pair.client.removeAllListeners('data')
    pair.upstream?.removeAllListeners('data')
    pair.client.removeAllListeners('drain')
    pair.upstream?.removeAllListeners('drain')
  }

  const openUpstream = (pair: Pair): void => {
    const upstream = connect(targetPort, targetHost)
    pair.upstream = upstream
    upstream.on('error', () => destroy(pair))
    upstream.on('close', () => destroy(pair))
    upstream.pause()
    if (state === 'open') flow(pair)
  }

  const server = createServer({ pauseOnConnect: true }, (client) => {
    const pair: Pair = { client, upstream: null, flowing: false }
    client.on('error', () => destroy(pair))
    client.on('close', () => destroy(pair))
    if (state === 'cut') {
      broken++
      client.destroy()
      return
    }
    pairs.add(pair)
    // A black-holed connection is accepted and held: the client waits, as on a network that drops packets.
    if (state === 'open') openUpstream(pair)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address')
  const port = address.port

  return {
    port,
    urlFor (url) {
      const parsed = new URL(url)
      parsed.hostname = '127.0.0.1'
      parsed.port = String(port)
      return parsed.toString()
    },
    cut () {
      state = 'cut'
      for (const pair of [...pairs]) {
        broken++
        // A reset, not a polite FIN: the server is gone.
        pair.client.resetAndDestroy()
        destroy(pair)
      }
    },
    blackhole () {
      state = 'blackhole'
      for (const pair of pairs) stopFlowing(pair)
    },
    cutOnceWhen (match) {
      return new Promise<void>((resolve) => { trap = { match, fired: resolve } })
    },
    restore () {
      const before = state
      state = 'open'
      trap = null
      if (before !== 'blackhole') return
      for (const pair of pairs) {
        if (pair.upstream === null) openUpstream(pair)
        else flow(pair)
      }
    },
    get state () { return state },
    get connectionsBroken () { return broken },
    async close () {
      for (const pair of [...pairs]) destroy(pair)
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** A proxy in front of the server of a `postgres://` or `redis://` URL. */
export function startProxyFor (url: string): Promise<TcpProxy> {
  const parsed = new URL(url)
  const defaultPort = parsed.protocol.startsWith('redis') ? 6379 : 5432
  return startTcpProxy(parsed.hostname || '127.0.0.1', parsed.port === '' ? defaultPort : Number(parsed.port))
}
