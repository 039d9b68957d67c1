import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import type { AppOptions } from '../../../../../app.ts'
import { seedDemoUsers } from '../../../../../seed/seed.ts'
import type { SqlSession } from '../../../../../storage/index.ts'
import { SqlStorage } from '../../../../../storage/index.ts'
import { buildTestApp, TEST_LONG_SESSIONS, TEST_PASSWORD_HASHING } from '../../../../helpers/app.ts'
import { asAdmin, asGuest, login, neverExhaustedCounter, newCartToken, SVC, USERS, type Login } from '../../../../helpers/security.ts'
import { storageBackends } from '../../../../helpers/storage-backends.ts'

/**
 * Helpers for the analytics routes (test/drawer/plugins/svc-pro/analytics/): the whole app on each storage backend with a clock the test
 * moves, the demo shop and its users, and plain SQL on the same database to look at what was stored. Expected
 * values are written out from the issue and the design, not imported from the plugin.
 */

export type Json = Record<string, any>

export const DAY = 86_400_000
/** The app's clock starts here (a Saturday, mid-March). */
export const START = Date.parse('2025-03-15T12:00:00.000Z')

/** Design §3.6 / route table: the events route takes bodies up to 32 KiB. */
export const EVENTS_BODY_LIMIT = 32 * 1024

export const EVENT_TYPES = [
  'drawer_open', 'drawer_close', 'recommendation_view', 'recommendation_add', 'addon_toggle', 'bundle_add',
  'spotlight_add', 'coupon_apply', 'checkout_click'
]

/** The demo shop's currency block (test/helpers/currency.ts). */
export { USD } from '../../../../helpers/currency.ts'

/** `{type: 0}` for every event type, overlaid with `counts`. */
export function counts (given: Record<string, number> = {}): Record<string, number> {
  return { ...Object.fromEntries(EVENT_TYPES.map((type) => [type, 0])), ...given }
}

export interface Clock {
  now (): Date
  advance (ms: number): void
  set (ms: number): void
}

export interface AnalyticsApp {
  app: FastifyInstance
  storage: SqlStorage
  /** Plain SQL on the app's database. */
  sql: SqlSession
  clock: Clock
  backend: string
}

function makeClock (): Clock {
  let time = START
  return { now: () => new Date(time), advance: (ms) => { time += ms }, set: (ms) => { time = ms } }
}

/**
 * One top-level test per storage backend (PGlite always, PostgreSQL with DATABASE_URL; under CI=true a missing
 * DATABASE_URL fails the PostgreSQL one), each with its own fresh database, migrated and seeded, and an app of the
 * given edition (Pro by default) whose clock starts at `START`. Rate limits never run out here.
 */
export function onEveryBackend (name: string, body: (t: Test, context: AnalyticsApp) => Promise<void>, options: Partial<AppOptions> = {}): void {
  for (const backend of storageBackends()) {
    test(`${name} (${backend.name})`, { skip: backend.skip }, async (t) => {
      const bare = await backend.createBareClients()
      t.teardown(() => bare.dispose())
      const [client, inspector] = bare.clients
      const storage = new SqlStorage(backend.name, client)
      await storage.migrate()
      await seedDemoUsers(storage, USERS, TEST_PASSWORD_HASHING)
      const rateCounter = neverExhaustedCounter()
      t.teardown(() => rateCounter.close())
      const clock = makeClock()
      const app = await buildTestApp(t, storage, { edition: 'pro', rateCounter, now: clock.now, sessions: TEST_LONG_SESSIONS, ...options })
      await body(t, { app, storage, sql: inspector, clock, backend: backend.name })
    })
  }
}

export function svcRequest (app: FastifyInstance, method: InjectOptions['method'], path: string, headers: Record<string, string>, payload?: unknown, extra: Partial<InjectOptions> = {}): Promise<LightMyRequestResponse> {
  const options: InjectOptions = { method, url: `${SVC}/${path}`, headers, ...extra }
  if (payload !== undefined) options.payload = payload as InjectOptions['payload']
  return app.inject(options)
}

/** A guest's Cart-Token, as the drawer gets it (valid 48 hours of the app's clock). */
export function guestToken (app: FastifyInstance): Promise<string> {
  return newCartToken(app)
}

/** `POST analytics/events` as the holder of `token`. */
export function postEvents (app: FastifyInstance, token: string, payload: unknown, extra: Partial<InjectOptions> = {}): Promise<LightMyRequestResponse> {
  return svcRequest(app, 'POST', 'analytics/events', asGuest(token), payload, extra)
}

/** Posts a batch and expects it accepted whole (202). */
export async function record (app: FastifyInstance, token: string, events: Json[]): Promise<void> {
  const response = await postEvents(app, token, { events })
  if (response.statusCode !== 202 || response.json().accepted !== events.length) {
    throw new Error(`analytics/events: ${response.statusCode} ${response.body}`)
  }
}

/** The seeded admin, logged in now (sessions live 14 days of the app's clock). */
export function adminLogin (app: FastifyInstance): Promise<Login> {
  return login(app, USERS.admin)
}

export function adminRequest (app: FastifyInstance, admin: Login, method: InjectOptions['method'], path: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return svcRequest(app, method, path, asAdmin(admin), payload)
}

/** `GET analytics/summary` as the admin (200 expected). */
export async function summary (app: FastifyInstance, admin: Login, query = ''): Promise<Json> {
  const response = await adminRequest(app, admin, 'GET', `analytics/summary${query}`)
  if (response.statusCode !== 200) throw new Error(`analytics/summary${query}: ${response.statusCode} ${response.body}`)
  return response.json()
}

/** Saves settings as the admin (200 expected). */
export async function saveSettings (app: FastifyInstance, admin: Login, settings: Json): Promise<void> {
  const response = await adminRequest(app, admin, 'POST', 'settings', { settings })
  if (response.statusCode !== 200) throw new Error(`POST settings: ${response.statusCode} ${response.body}`)
}

export interface StoredEvent {
  type: string
  visitor: string | null
  product_id: number | null
  drawer_add: boolean
  occurred_at: string
  data: Json
}

/** Every stored event, oldest first (ties in insertion order), with `occurred_at` as an ISO instant. */
export async function storedEvents (sql: SqlSession): Promise<StoredEvent[]> {
  const { rows } = await sql.query<StoredEvent>(
    `SELECT type, visitor, product_id, drawer_add,
            to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at, data
     FROM svc_analytics_events ORDER BY occurred_at, id`)
  return rows
}

export async function storedCount (sql: SqlSession): Promise<number> {
  const { rows } = await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM svc_analytics_events')
  return Number(rows[0]!.n)
}
