import { compileTrustedProxies } from '../plugins/security/client-ip.ts'

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
  logLevel: string
  /** Default value of the filter `svc_rest_allowed_origins`. */
  allowedOrigins: string[]
  /** Default value of the filter `svc_rest_trusted_proxy_cidrs`. */
  trustedProxyCidrs: string[]
  /** The demo users the seed creates (their passwords are only used when the user is first created). */
  demoUsers: {
    admin: { email: string, password: string }
    shopper: { email: string, password: string }
  }
}

export const DEFAULT_DEMO_USERS = {
  admin: { email: 'admin@shop.test', password: 'admin-demo-password' },
  shopper: { email: 'shopper@shop.test', password: 'shopper-demo-password' }
} as const

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

function url (name: string, value: string, protocols: string[], problems: string[]): string {
  try {
    const parsed = new URL(value)
    if (!protocols.includes(parsed.protocol)) problems.push(`${name} must be a ${protocols.join(' or ')} URL, got "${value}"`)
  } catch {
    problems.push(`${name} must be a URL, got "${value}"`)
  }
  return value
}

export function readEnv (env: NodeJS.ProcessEnv = process.env): ServerEnv {
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

  const secrets = (text('SVC_SECRET') ?? '').split(',').map((secret) => secret.trim()).filter(Boolean)
  secrets.forEach((secret, index) => {
    if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
      problems.push(`SVC_SECRET: secret #${index + 1} is ${Buffer.byteLength(secret)} bytes; each secret needs at least ${MIN_SECRET_BYTES}`)
    }
  })

  const logLevel = text('LOG_LEVEL') ?? 'info'
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)

  const defaultUrl = `http://localhost:${Number.isInteger(port) ? port : 3000}`
  const siteUrl = url('SVC_SITE_URL', text('SVC_SITE_URL') ?? defaultUrl, ['http:', 'https:'], problems)
  const homeUrl = url('SVC_HOME_URL', text('SVC_HOME_URL') ?? siteUrl, ['http:', 'https:'], problems)
  const databaseUrl = text('DATABASE_URL')
  if (databaseUrl) url('DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:'], problems)
  const redisUrl = text('REDIS_URL')
  if (redisUrl) url('REDIS_URL', redisUrl, ['redis:', 'rediss:'], problems)

  const list = (name: string) => (text(name) ?? '').split(',').map((entry) => entry.trim()).filter(Boolean)
  const allowedOrigins = list('SVC_ALLOWED_ORIGINS')
  for (const origin of allowedOrigins) {
    let valid = false
    try {
      const parsed = new URL(origin)
      valid = (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === origin.replace(/\/$/, '')
    } catch {}
    if (!valid) problems.push(`SVC_ALLOWED_ORIGINS: "${origin}" is not an origin like https://shop.example or http://localhost:8080`)
  }
  const trustedProxyCidrs = list('SVC_TRUSTED_PROXY_CIDRS')
  try {
    compileTrustedProxies(trustedProxyCidrs)
  } catch (error) {
    problems.push(`SVC_TRUSTED_PROXY_CIDRS: ${(error as Error).message}`)
  }

  const account = (role: 'admin' | 'shopper') => {
    const prefix = `SVC_${role.toUpperCase()}`
    const email = text(`${prefix}_EMAIL`) ?? DEFAULT_DEMO_USERS[role].email
    const password = text(`${prefix}_PASSWORD`) ?? DEFAULT_DEMO_USERS[role].password
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) problems.push(`${prefix}_EMAIL must be an e-mail address, got "${email}"`)
    if (password.length < 8) problems.push(`${prefix}_PASSWORD must have at least 8 characters`)
    return { email, password }
  }
  const demoUsers = { admin: account('admin'), shopper: account('shopper') }

  if (problems.length > 0) throw new EnvError(problems)
  return {
    port,
    host: text('HOST') ?? '127.0.0.1',
    siteUrl,
    homeUrl,
    edition: edition as ServerEnv['edition'],
    secrets,
    dataDir: text('SVC_DATA_DIR') ?? './data',
    databaseUrl: databaseUrl ?? null,
    redisUrl: redisUrl ?? null,
    logLevel,
    allowedOrigins,
    trustedProxyCidrs,
    demoUsers
  }
}
