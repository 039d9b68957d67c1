import { compileTrustedProxies } from '../drawer/index.ts'
import { parseClusterNodes } from '../storage/redis/index.ts'
import type { LogFormat } from './logger.ts'

/** The server's environment, read and validated once at start. Plugins never read `process.env`. */
export interface ServerEnv {
  port: number
  host: string
  siteUrl: string
  homeUrl: string
  edition: 'free' | 'pro'
  /** Empty when SVC_SECRET is unset: the server then uses a secret generated once and kept in the database. */
  secrets: string[]
  dataDir: string
  databaseUrl: string | null
  redisUrl: string | null
  /**
   * REDIS_CLUSTER_NODES: a Redis Cluster instead of one Redis, as a comma-separated list of some or all of its nodes
   * (`host:port`, or `redis://`/`rediss://` URLs when a password or TLS is needed; the other nodes are discovered).
   * The alternative to REDIS_URL: setting both is refused.
   */
  redisClusterNodes: string[] | null
  /**
   * SVC_INSTANCES: how many instances serve the shop (default 1). While Redis does not answer, each counts the rate
   * limits in its own memory and allows `ceil(limit / instances)` of each, so the shop as a whole stays within it.
   */
  instances: number
  logLevel: string
  /** LOG_FORMAT: `pretty` (the default on a terminal) or `json` (the default otherwise). */
  logFormat: LogFormat
  /** Default value of the filter `svc_rest_allowed_origins`. */
  allowedOrigins: string[]
  /** Default value of the filter `svc_rest_trusted_proxy_cidrs`. */
  trustedProxyCidrs: string[]
  /** `NODE_ENV=production`: a secret of its own and no published password are required. */
  production: boolean
  /** Demo mode (`SVC_DEMO`; on unless `NODE_ENV=production`): the demo catalog, coupons and users are seeded. */
  demo: boolean
  /**
   * The accounts to create at start when missing (an existing user keeps its password): in demo mode both, with the
   * demo e-mails and passwords unless set; otherwise each one whose e-mail and password are both given.
   */
  users: {
    admin?: Account
    shopper?: Account
  }
}

export interface Account {
  email: string
  password: string
}

export const DEFAULT_DEMO_USERS = {
  admin: { email: 'admin@shop.test', password: 'admin-demo-password' },
  shopper: { email: 'shopper@shop.test', password: 'shopper-demo-password' }
} as const

/**
 * Secrets that stand in this project's public files (an old `docker-compose.yml` default, the tests, the OpenAPI
 * script): anyone can read them, so a production server refuses them.
 */
export const PUBLISHED_SECRETS: readonly string[] = [
  'change-me-to-a-long-random-secret-of-32-bytes-or-more',
  'test-secret-that-is-at-least-32-bytes-long',
  'browser-test-secret-that-is-at-least-32-bytes',
  'openapi-document-only-secret-32-bytes'
]

const DEMO_PASSWORDS: readonly string[] = Object.values(DEFAULT_DEMO_USERS).map((user) => user.password)

export class EnvError extends Error {
  readonly problems: string[]
  constructor (problems: string[]) {
    super(`Invalid environment:\n  - ${problems.join('\n  - ')}`)
    this.name = 'EnvError'
    this.problems = problems
  }
}

const MIN_SECRET_BYTES = 32
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
const BOOLEANS = ['1', '0', 'true', 'false']

function url (name: string, value: string, protocols: string[], problems: string[]): string {
  try {
    const parsed = new URL(value)
    if (!protocols.includes(parsed.protocol)) problems.push(`${name} must be a ${protocols.join(' or ')} URL, got "${value}"`)
  } catch {
    problems.push(`${name} must be a URL, got "${value}"`)
  }
  return value
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]']

/** The same origins under the other loopback host names, for site and home URLs on a loopback host. */
function loopbackAliases (...urls: string[]): string[] {
  const aliases: string[] = []
  for (const value of urls) {
    let parsed: URL
    try {
      parsed = new URL(value)
    } catch {
      continue
    }
    if (!LOOPBACK_HOSTS.includes(parsed.hostname)) continue
    for (const host of LOOPBACK_HOSTS) {
      const origin = `${parsed.protocol}//${host}${parsed.port === '' ? '' : `:${parsed.port}`}`
      if (origin !== parsed.origin && !aliases.includes(origin)) aliases.push(origin)
    }
  }
  return aliases
}

/** Reads and checks the environment; `terminal` tells whether the logs go to a terminal (pretty by default). */
export function readEnv (env: NodeJS.ProcessEnv = process.env, terminal = process.stdout.isTTY === true): ServerEnv {
  const problems: string[] = []
  const text = (name: string) => {
    const value = env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }

  const portText = text('PORT') ?? '3000'
  const port = Number(portText)
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be an integer from 0 to 65535, got "${portText}"`)

  const edition = text('SVC_EDITION') ?? 'free'
  if (edition !== 'free' && edition !== 'pro') problems.push(`SVC_EDITION must be "free" or "pro", got "${edition}"`)

  const production = env.NODE_ENV === 'production'
  const demoText = text('SVC_DEMO')
  if (demoText !== undefined && !BOOLEANS.includes(demoText)) problems.push(`SVC_DEMO must be true or false (or 1 or 0), got "${demoText}"`)
  const demo = demoText === undefined || !BOOLEANS.includes(demoText) ? !production : ['1', 'true'].includes(demoText)

  const secrets = (text('SVC_SECRET') ?? '').split(',').map((secret) => secret.trim()).filter(Boolean)
  secrets.forEach((secret, index) => {
    if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
      problems.push(`SVC_SECRET: secret #${index + 1} is ${Buffer.byteLength(secret)} bytes; each secret needs at least ${MIN_SECRET_BYTES}`)
    }
    if (production && PUBLISHED_SECRETS.includes(secret)) {
      problems.push(`SVC_SECRET: secret #${index + 1} is published in this project's files; with NODE_ENV=production set a secret of your own (e.g. openssl rand -base64 48)`)
    }
  })
  if (production && secrets.length === 0) {
    problems.push('SVC_SECRET is not set; with NODE_ENV=production set a long random secret of your own (e.g. openssl rand -base64 48)')
  }

  const logLevel = text('LOG_LEVEL') ?? 'info'
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)

  const logFormat = text('LOG_FORMAT') ?? (terminal ? 'pretty' : 'json')
  if (logFormat !== 'pretty' && logFormat !== 'json') problems.push(`LOG_FORMAT must be "pretty" or "json", got "${logFormat}"`)

  const defaultUrl = `http://localhost:${Number.isInteger(port) ? port : 3000}`
  const siteUrl = url('SVC_SITE_URL', text('SVC_SITE_URL') ?? defaultUrl, ['http:', 'https:'], problems)
  const homeUrl = url('SVC_HOME_URL', text('SVC_HOME_URL') ?? siteUrl, ['http:', 'https:'], problems)
  const databaseUrl = text('DATABASE_URL')
  if (databaseUrl) url('DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:'], problems)
  const redisUrl = text('REDIS_URL')
  if (redisUrl) url('REDIS_URL', redisUrl, ['redis:', 'rediss:'], problems)

  const list = (name: string) => (text(name) ?? '').split(',').map((entry) => entry.trim()).filter(Boolean)
  const redisClusterNodes = list('REDIS_CLUSTER_NODES')
  if (redisClusterNodes.length > 0) {
    // One place for the rate counters (and whatever else is kept in Redis): two would split every limit in two.
    if (redisUrl) problems.push('REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL for one Redis server or REDIS_CLUSTER_NODES for a Redis Cluster, not both')
    try {
      parseClusterNodes(redisClusterNodes)
    } catch (error) {
      problems.push(`REDIS_CLUSTER_NODES: ${(error as Error).message}`)
    }
  }
  const instancesText = text('SVC_INSTANCES') ?? '1'
  const instances = Number(instancesText)
  if (!/^\d+$/.test(instancesText) || !Number.isSafeInteger(instances) || instances < 1) {
    problems.push(`SVC_INSTANCES must be a whole number of instances, at least 1, got "${instancesText}"`)
  }
  const allowedOrigins = list('SVC_ALLOWED_ORIGINS')
  for (const origin of allowedOrigins) {
    let valid = false
    try {
      const parsed = new URL(origin)
      valid = (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === origin.replace(/\/$/, '')
    } catch {}
    if (!valid) problems.push(`SVC_ALLOWED_ORIGINS: "${origin}" is not an origin like https://shop.example or http://localhost:8080`)
  }
  // The demo answers on every loopback name: a shopper who types 127.0.0.1 where the site URL says localhost (or the
  // other way round) can still use the drawer and the admin screen.
  if (demo) {
    for (const alias of loopbackAliases(siteUrl, homeUrl)) if (!allowedOrigins.includes(alias)) allowedOrigins.push(alias)
  }
  const trustedProxyCidrs = list('SVC_TRUSTED_PROXY_CIDRS')
  try {
    compileTrustedProxies(trustedProxyCidrs)
  } catch (error) {
    problems.push(`SVC_TRUSTED_PROXY_CIDRS: ${(error as Error).message}`)
  }

  // Outside demo mode an account is created only when both its e-mail and its password are given.
  const account = (role: 'admin' | 'shopper'): Account | undefined => {
    const prefix = `SVC_${role.toUpperCase()}`
    const given = { email: text(`${prefix}_EMAIL`), password: text(`${prefix}_PASSWORD`) }
    if (!demo && given.email === undefined && given.password === undefined) return undefined
    if (!demo && (given.email === undefined || given.password === undefined)) {
      problems.push(`${prefix}_EMAIL and ${prefix}_PASSWORD go together: set both to create the ${role === 'admin' ? 'shop manager' : 'shopper'}, or neither`)
      return undefined
    }
    const email = given.email ?? DEFAULT_DEMO_USERS[role].email
    const password = given.password ?? DEFAULT_DEMO_USERS[role].password
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) problems.push(`${prefix}_EMAIL must be an e-mail address, got "${email}"`)
    if (password.length < 8) problems.push(`${prefix}_PASSWORD must have at least 8 characters`)
    if (production && DEMO_PASSWORDS.includes(password)) {
      problems.push(given.password === undefined
        ? `${prefix}_PASSWORD is not set, so the demo ${role} would get the published demo password; with NODE_ENV=production set ${prefix}_PASSWORD (or SVC_DEMO=false)`
        : `${prefix}_PASSWORD is a published demo password; with NODE_ENV=production choose another`)
    }
    return { email, password }
  }
  const admin = account('admin')
  const shopper = account('shopper')

  if (problems.length > 0) throw new EnvError(problems)
  return {
    port,
    // 'localhost' listens on both loopback addresses (127.0.0.1 and ::1), so the default site URL reaches it.
    host: text('HOST') ?? 'localhost',
    siteUrl,
    homeUrl,
    edition: edition as ServerEnv['edition'],
    secrets,
    dataDir: text('SVC_DATA_DIR') ?? './data',
    databaseUrl: databaseUrl ?? null,
    redisUrl: redisUrl ?? null,
    redisClusterNodes: redisClusterNodes.length > 0 ? redisClusterNodes : null,
    instances,
    logLevel,
    logFormat: logFormat as LogFormat,
    allowedOrigins,
    trustedProxyCidrs,
    production,
    demo,
    users: { ...(admin ? { admin } : {}), ...(shopper ? { shopper } : {}) }
  }
}
