import { randomUUID } from 'node:crypto'
import { connect, createServer } from 'node:net'
import type { Server, Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import { createRedisRateCounter } from '../../storage/redis/index.ts'
import type { RedisRateCounterOptions } from '../../storage/redis/index.ts'
import type { RateCounter } from '../../storage/contract/index.ts'
import { serviceUrl, skipWithout } from './services.ts'

export interface RateCounterFixture {
  counter: RateCounter
  /** Lets `ms` pass for the counter: moves the injected clock (memory) or waits in real time (Redis). */
  elapse: (ms: number) => Promise<void>
}

export interface RateCounterBackend {
  name: string
  /** Why its tests are skipped (no server on this machine), or false: pass it as the test's `skip` option. */
  skip: string | false
  /** A window short enough to wait out in real time. */
  shortWindowMs: number
  /** A Redis Cluster: its counter has no `hitEach` (a request's keys live on different nodes). */
  cluster?: boolean
  create: () => RateCounterFixture
}

/**
 * Every key of a counter made here lives under a prefix of its own, so parallel test files never collide. The
 * command timeout is generous because a busy test machine can stall the event loop past the 250 ms default.
 */
export function createTestRedisCounter (url: string, options: Partial<RedisRateCounterOptions> = {}): RateCounter {
  return createRedisRateCounter({ url, keyPrefix: `test:rl:${randomUUID()}:`, commandTimeoutMs: 2000, ...options })
}

/**
 * Waits until the counter answers a ping. A test that builds apps right after creating a Redis counter can stall its
 * own event loop past the connect timeout on a loaded machine; the client then reconnects, and until it has, every
 * hit is refused (fail fast, by design). Tests that expect a healthy Redis wait here first.
 */
export async function untilAnswering (counter: RateCounter, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      await counter.ping()
      return
    } catch (error) {
      if (Date.now() > deadline) throw error
      await sleep(50)
    }
  }
}

export function rateCounterBackends (): RateCounterBackend[] {
  const backends: RateCounterBackend[] = [{
    name: 'memory',
    skip: false,
    shortWindowMs: 150,
    create () {
      let time = 1_700_000_000_000
      const counter = createMemoryRateCounter({ now: () => time })
      return { counter, elapse: async (ms) => { time += ms } }
    }
  }]
  backends.push({
    name: 'redis',
    skip: skipWithout('REDIS_URL'),
    shortWindowMs: 200,
    create: () => ({ counter: createTestRedisCounter(serviceUrl('REDIS_URL')), elapse: async (ms) => { await sleep(ms) } })
  })
  return backends
}

export interface PausableProxy {
  url: string
  /** Stops forwarding on the open connections without closing them, like a network that stops delivering packets. */
  pause: () => void
  close: () => Promise<void>
}

/** A TCP proxy to Redis; connections opened after `pause()` are forwarded normally. */
export async function startPausableProxy (redisUrl: string): Promise<PausableProxy> {
  const target = new URL(redisUrl)
  const sockets = new Set<Socket>()
  const server = createServer(client => {
    const upstream = connect(target.port === '' ? 6379 : Number(target.port), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => socket.destroy())
      socket.on('close', () => { sockets.delete(socket); client.destroy(); upstream.destroy() })
    }
    client.pipe(upstream).pipe(client)
  })
  return {
    url: await listen(server),
    pause () {
      for (const socket of sockets) {
        socket.unpipe()
        socket.pause()
      }
    },
    async close () {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>(resolve => server.close(() => resolve()))
    }
  }
}

/** A TCP server that accepts connections and never answers: Redis reachable but hung. */
export async function startSilentServer (): Promise<{ url: string, close: () => Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer(socket => {
    sockets.add(socket)
    socket.on('error', () => socket.destroy())
    socket.on('close', () => sockets.delete(socket))
  })
  return {
    url: await listen(server),
    async close () {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>(resolve => server.close(() => resolve()))
    }
  }
}

async function listen (server: Server): Promise<string> {
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address')
  return `redis://127.0.0.1:${address.port}`
}
