import { Redis } from 'ioredis'

export interface RedisConnectionOptions {
  url: string
  commandTimeoutMs: number
  connectTimeoutMs: number
  connectionName?: string
  onError?: (error: Error) => void
}

// Short enough that limits count again well within a second of Redis returning.
const maxReconnectDelayMs = 500

/**
 * A client that fails fast instead of queueing: commands reject at once while disconnected, in-flight commands
 * reject when the connection drops (never resent), and reconnection keeps going in the background.
 */
export function createFailFastClient (options: RedisConnectionOptions): Redis {
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: options.connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs,
    // A half-open connection (peer gone without a FIN) would otherwise time out every command forever.
    socketTimeout: Math.max(options.connectTimeoutMs, 2 * options.commandTimeoutMs),
    retryStrategy: (times) => Math.min(times * 100, maxReconnectDelayMs),
    connectionName: options.connectionName,
    // Commands issued in the same tick (a limited request's per-IP and per-visitor hits) go out in one write.
    enableAutoPipelining: true
  })
  client.on('error', (error: Error) => options.onError?.(error))
  return client
}

/**
 * Resolves once the first connection attempt has settled (ready or failed), or after `ms`. Only the first attempt
 * is waited for, so that requests arriving while the process starts are not refused; later outages fail fast.
 */
export function initialConnection (client: Redis): (ms: number) => Promise<void> {
  let settled = false
  const firstAttempt = new Promise<void>(resolve => {
    const done = (): void => {
      settled = true
      client.off('ready', done)
      client.off('close', done)
      resolve()
    }
    client.on('ready', done)
    client.on('close', done)
  })
  return async (ms) => {
    if (settled) return
    let timer: NodeJS.Timeout | undefined
    await Promise.race([firstAttempt, new Promise<void>(resolve => { timer = setTimeout(resolve, ms) })])
    clearTimeout(timer)
  }
}
