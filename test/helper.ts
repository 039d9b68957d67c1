import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyPluginCallback } from 'fastify'
import type { Test } from 'tap'
import { buildApp, type AppOptions } from '../app.ts'
import { installErrorHandling } from '../kernel/errors/index.ts'
import { adminScreensPlugin, commercePlugin, drawerAssetsPlugin, fragmentsPlugin, securityPlugin, type Edition, settingsPlugin, storeApiExtensionPlugin, svcFreePlugin, svcProPlugin } from '../drawer/index.ts'
import { shopPlugin } from '../hosts/reference-shop/index.ts'
import { demoShopConfig } from '../seed/demo-config.ts'
import { seedDemoShop, seedDemoUsers, type DemoUsers } from '../seed/seed.ts'
import { createMemoryRateCounter, createMemoryStorage } from '../storage/memory/index.ts'
import type { RateCounter, Storage } from '../storage/contract/index.ts'
import { createTestPgliteStorage } from './helpers/pglite.ts'
import { skipWithout } from './helpers/services.ts'
import { storageBackends } from './helpers/storage-backends.ts'

/**
 * One place that builds what the tests run against (as fastify/demo's test/helper): `build` for the whole app,
 * `buildPlatform` and `registerDrawerPlugins` for a bare Fastify with the reference platform and some of the drawer's
 * plugins (test/plugins/), and `waitFor` for tests that wait for something to happen. test/helpers/app.ts
 * (`buildTestApp`) and test/helpers/security.ts (`buildSecurityApp`) are built on `build`.
 */

export const TEST_SECRET = 'test-secret-that-is-at-least-32-bytes-long'
/**
 * scrypt's parameters in the tests: N=2^10 (1 MiB, a few milliseconds) instead of OWASP's N=2^17 (128 MiB, about
 * half a second each on a loaded machine), so that seeding users and logging in cost the suite nothing. The default
 * itself is checked by test/hosts/reference-shop/hardening/password-hashing.test.ts.
 */
export const TEST_PASSWORD_HASHING = { N: 2 ** 10, r: 8, p: 1 } as const
/**
 * Login sessions of two weeks, idle or not: for suites that move the app's clock by hours or days to age nonces,
 * tokens or analytics while a user stays logged in. The production limits (30 minutes idle, 12 hours) are tested by
 * test/hosts/reference-shop/hardening/sessions.test.ts.
 */
export const TEST_LONG_SESSIONS = { idleTimeoutMs: 14 * 24 * 3_600_000, lifetimeMs: 14 * 24 * 3_600_000 } as const
export const SITE_URL = 'http://shop.test'
export const STORE_API = '/wp-json/wc/store/v1'
export const SVC = '/wp-json/svc/v1'

/** What the builders need of a tap test: a teardown (run last in, first out). */
export interface Teardown {
  teardown (fn: () => unknown): void
}

/**
 * Where the test's data lives. `pglite` (default): a fresh PGlite database of the test's own. `memory`: the
 * in-process storage (storage/memory/), nothing on disk. `postgres`: a fresh schema on DATABASE_URL, dropped
 * afterwards; pass `{ skip: backendSkip('postgres') }` to the test so that it is skipped without DATABASE_URL (and
 * fails under CI=true, test/helpers/services.ts).
 */
export type Backend = 'pglite' | 'memory' | 'postgres'

/** The reason to skip a test on `backend` here, or false: pass it as the test's `skip` option. */
export function backendSkip (backend: Backend): string | false {
  return backend === 'postgres' ? skipWithout('DATABASE_URL') : false
}

export interface StorageOptions {
  backend?: Backend
  /** Seed the demo shop (default true). */
  seed?: boolean
  /** Users to seed besides the demo shop. */
  users?: DemoUsers
}

/** The backend of tests that name none: PGlite, or `SVC_TEST_BACKEND` (`memory`, `postgres`). */
function defaultBackend (): Backend {
  const chosen = process.env.SVC_TEST_BACKEND
  if (chosen === undefined || chosen === '') return 'pglite'
  if (chosen === 'pglite' || chosen === 'memory' || chosen === 'postgres') return chosen
  throw new Error(`SVC_TEST_BACKEND must be pglite, memory or postgres, not ${chosen}`)
}

/** A fresh storage on `backend`, seeded, closed (and thrown away) when the test ends. */
export async function createStorage (t: Teardown, options: StorageOptions = {}): Promise<Storage> {
  // SVC_TEST_BACKEND=memory|postgres runs the suites that take the default on another backend.
  const backend = options.backend ?? defaultBackend()
  let storage: Storage
  if (backend === 'postgres') {
    // Throws without DATABASE_URL: skipped tests never get here, and under CI=true the test fails.
    storage = await storageBackends().find((candidate) => candidate.name === 'postgres')!.create()
  } else if (backend === 'memory') {
    storage = createMemoryStorage()
  } else {
    storage = await createTestPgliteStorage()
  }
  t.teardown(() => storage.close())
  if (options.seed ?? true) {
    await seedDemoShop(storage, SITE_URL)
    if (options.users) await seedDemoUsers(storage, options.users, TEST_PASSWORD_HASHING)
  }
  return storage
}

export type Host = 'reference' | 'memory-shop'

/** The example host's shop manager, unless `users.admin` names another. */
export const MEMORY_SHOP_ADMIN = { email: 'manager@tea.test', password: 'steep-and-sip-123' }

export interface BuildOptions extends Partial<AppOptions> {
  edition?: Edition
  /** Where a storage made here lives (ignored when `storage` is given). */
  backend?: Backend
  /**
   * The shop the drawer runs in: the reference platform (`buildApp`, default), or the example host
   * (examples/memory-shop/, everything in memory: it takes `edition`, `secrets`, `homeUrl` or `siteUrl`,
   * `rateCounter`, `now`, `users.admin` and `beforeReady`, and refuses `storage` and `backend`).
   */
  host?: Host
  /**
   * Seed the demo shop (default true): into the storage made here, or into the given `storage` (seeding is once per
   * database, so a seeded one is left as it is).
   */
  seed?: boolean
  /** Users to seed with the demo shop. */
  users?: DemoUsers
  /** Called before the app is readied: routes and hooks a test adds. */
  beforeReady?: (app: FastifyInstance) => unknown
}

/**
 * The whole app (the reference platform and the cart drawer, Free unless told otherwise), seeded with the demo shop,
 * ready, and closed when the test ends. Defaults: a fresh PGlite storage, an in-process rate counter, TEST_SECRET,
 * SITE_URL and the demo shop's configuration; every `AppOptions` field given overrides them. A storage or rate
 * counter given is the caller's to close; those made here are closed after the app.
 */
export async function build (t: Teardown, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { backend, host = 'reference', seed = true, users, beforeReady, ...appOptions } = options
  if (host === 'memory-shop') return buildMemoryShop(t, options)
  let storage = appOptions.storage
  if (storage === undefined) {
    storage = await createStorage(t, { backend, seed, users })
  } else if (seed) {
    await seedDemoShop(storage, SITE_URL)
    if (users) await seedDemoUsers(storage, users, TEST_PASSWORD_HASHING)
  }
  let rateCounter = appOptions.rateCounter
  if (rateCounter === undefined) {
    const counter = createMemoryRateCounter()
    t.teardown(() => counter.close())
    rateCounter = counter
  }
  const app = await buildApp({
    secrets: [TEST_SECRET],
    siteUrl: SITE_URL,
    shop: demoShopConfig,
    passwordHashing: TEST_PASSWORD_HASHING,
    ...appOptions,
    storage,
    rateCounter
  })
  t.teardown(() => app.close())
  await beforeReady?.(app)
  await app.ready()
  return app
}

/** `build` on the example host: its own catalog, carts and login in memory, the drawer registered over its port. */
async function buildMemoryShop (t: Teardown, options: BuildOptions): Promise<FastifyInstance> {
  if (options.storage !== undefined || options.backend !== undefined) throw new Error('build: the memory-shop host keeps everything in memory (no storage or backend)')
  // Loaded only here: the other tests do not load the example.
  const { buildTeaShop } = await import('../examples/memory-shop/app.ts')
  const { app } = await buildTeaShop({
    secret: options.secrets?.[0] ?? TEST_SECRET,
    admin: options.users?.admin ?? MEMORY_SHOP_ADMIN,
    edition: options.edition,
    homeUrl: options.homeUrl ?? options.siteUrl ?? SITE_URL,
    rateCounter: options.rateCounter,
    now: options.now
  })
  t.teardown(() => app.close())
  await options.beforeReady?.(app)
  await app.ready()
  return app
}

// ---------------------------------------------------------------------------------------------- plugins alone

/** The reference platform on a bare Fastify instance, with what the drawer's plugins would be given. */
export interface PlatformHost {
  app: FastifyInstance
  storage: Storage
  rateCounter: RateCounter
}

/**
 * A bare `Fastify()` with the kernel/errors/ handling and the reference platform (`shopPlugin`) over a fresh seeded storage
 * (PGlite unless told otherwise), closed when the test ends. No drawer plugin is registered: the test adds the ones
 * it checks (`registerDrawerPlugins`) and readies the app.
 */
export async function buildPlatform (t: Teardown, options: { backend?: Backend } = {}): Promise<PlatformHost> {
  const storage = await createStorage(t, { backend: options.backend })
  const rateCounter = createMemoryRateCounter()
  t.teardown(() => rateCounter.close())
  const app = Fastify()
  t.teardown(() => app.close())
  installErrorHandling(app)
  await app.register(shopPlugin, {
    storage, secrets: [TEST_SECRET], restRoot: '/wp-json/', siteUrl: SITE_URL, homeUrl: SITE_URL, config: demoShopConfig, passwordHashing: TEST_PASSWORD_HASHING
  })
  return { app, storage, rateCounter }
}

interface DrawerPlugin {
  /** The plugin's name (its `fastify-plugin` name, which dependencies name). */
  name: string
  plugin: FastifyPluginAsync<any> | FastifyPluginCallback<any>
  options: (host: PlatformHost, context: { edition: Edition, names: ReadonlySet<string> }) => object
}

/** The drawer's plugins in the order `cartDrawer` registers them, with the options it gives each. */
export const DRAWER_PLUGINS: readonly DrawerPlugin[] = [
  {
    name: 'commerce',
    plugin: commercePlugin,
    options: ({ app, storage }) => ({ commerce: app.shop.commerce, stores: { settings: storage, analytics: storage }, secrets: [TEST_SECRET] })
  },
  // Without the commerce plugin (it declares no dependency), the settings plugin is given its store.
  { name: 'settings', plugin: settingsPlugin, options: ({ storage }, { names }) => names.has('commerce') ? {} : { storage } },
  { name: 'store-api-extension', plugin: storeApiExtensionPlugin, options: () => ({}) },
  { name: 'fragments', plugin: fragmentsPlugin, options: () => ({}) },
  // Counting must not be refused because a loaded test machine answers slower than production's 250 ms.
  { name: 'security', plugin: securityPlugin, options: ({ rateCounter }) => ({ rateCounter, counterTimeoutMs: 2000 }) },
  { name: 'svc-free', plugin: svcFreePlugin, options: () => ({}) },
  { name: 'svc-pro', plugin: svcProPlugin, options: () => ({}) },
  { name: 'svc-drawer-assets', plugin: drawerAssetsPlugin, options: (_host, { edition }) => ({ edition }) },
  { name: 'svc-admin-screens', plugin: adminScreensPlugin, options: (_host, { edition }) => ({ edition }) }
]

function drawerPlugin (name: string): DrawerPlugin {
  const found = DRAWER_PLUGINS.find((entry) => entry.name === name)
  if (found === undefined) throw new Error(`no drawer plugin is named ${name}`)
  return found
}

/** What a `fastify-plugin` plugin declares (`name`, `dependencies`). */
export function pluginMeta (plugin: object): { name: string, dependencies: string[] } {
  const meta = (plugin as Record<symbol, { name?: string, dependencies?: string[] } | undefined>)[Symbol.for('plugin-meta')]
  return { name: meta?.name ?? '', dependencies: [...(meta?.dependencies ?? [])] }
}

/** The dependencies a drawer plugin declares. */
export function declaredDependencies (name: string): string[] {
  return pluginMeta(drawerPlugin(name).plugin).dependencies
}

/** The plugin and what it declares as dependencies, and what they declare, and so on. */
export function withDependencies (name: string): string[] {
  const found = new Set<string>()
  const visit = (current: string): void => {
    if (found.has(current)) return
    found.add(current)
    for (const dependency of declaredDependencies(current)) visit(dependency)
  }
  visit(name)
  return DRAWER_PLUGINS.map((entry) => entry.name).filter((entry) => found.has(entry))
}

/**
 * Registers exactly the named drawer plugins on the platform, in `cartDrawer`'s order, without waiting for them:
 * they load, and a missing dependency fails, when the app is readied.
 */
export function registerDrawerPlugins (host: PlatformHost, names: readonly string[], options: { edition?: Edition } = {}): void {
  const set = new Set(names)
  for (const name of set) drawerPlugin(name)
  const context = { edition: options.edition ?? 'free', names: set }
  for (const entry of DRAWER_PLUGINS) {
    if (set.has(entry.name)) host.app.register(entry.plugin, entry.options(host, context))
  }
}

/**
 * The platform plus the named plugin and its declared dependencies (nothing else), ready. `beforeReady` adds what
 * the test needs (a route of its own, say) once the plugins are loaded.
 */
export async function buildPluginAlone (
  t: Teardown,
  name: string,
  options: { edition?: Edition, beforeReady?: (host: PlatformHost) => unknown } = {}
): Promise<PlatformHost> {
  const host = await buildPlatform(t)
  registerDrawerPlugins(host, withDependencies(name), options)
  // Loaded before the test adds its own routes, so that their onRoute hooks see them.
  await host.app.after()
  await options.beforeReady?.(host)
  await host.app.ready()
  return host
}

/**
 * For each dependency the plugin declares, the plugin registered with its other dependencies but without that one
 * (nor the plugins that need it): readying the app must fail with Fastify's FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED,
 * naming the dependency and the plugin.
 */
export async function expectDependenciesRequired (
  t: Test,
  name: string,
  options: { edition?: Edition } = {}
): Promise<void> {
  for (const dependency of declaredDependencies(name)) {
    await t.test(`without ${dependency}`, async (t) => {
      const needing = new Set(withDependencies(name).filter((other) => other !== name && withDependencies(other).includes(dependency)))
      const names = withDependencies(name).filter((other) => !needing.has(other))
      const host = await buildPlatform(t)
      registerDrawerPlugins(host, names, options)
      await t.rejects(async () => { await host.app.ready() }, {
        code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED',
        message: `The dependency '${dependency}' of plugin '${name}' is not registered`
      }, `${name} without ${dependency} does not start`)
    })
  }
}

// ---------------------------------------------------------------------------------------------- waiting

/** A value that is not false, 0, '', null or undefined. */
export type Truthy<T> = Exclude<T, false | 0 | 0n | '' | null | undefined>

export interface WaitForOptions {
  /** Give up after this long (default 5000 ms). */
  timeoutMs?: number
  /** Between two checks (default 20 ms). */
  intervalMs?: number
  /** What is waited for, for the error on timeout. */
  what?: string
}

/**
 * Polls `check` until it returns a truthy value, and returns that value. A check that throws counts as not yet.
 * Throws after `timeoutMs`, with the last value or error. For tests that wait for something to happen instead of
 * sleeping a fixed time; a test that must see that something does NOT happen still needs a fixed window.
 */
export async function waitFor<T> (check: () => T | Promise<T>, options: WaitForOptions = {}): Promise<Truthy<T>> {
  const { timeoutMs = 5000, intervalMs = 20, what = 'the condition' } = options
  const deadline = performance.now() + timeoutMs
  let last: { value?: unknown, error?: unknown } = {}
  for (;;) {
    try {
      const value = await check()
      if (value) return value as Truthy<T>
      last = { value }
    } catch (error) {
      last = { error }
    }
    if (performance.now() >= deadline) {
      const detail = 'error' in last ? `last error: ${String(last.error)}` : `last value: ${JSON.stringify(last.value)}`
      throw new Error(`waitFor: ${what} did not hold within ${timeoutMs} ms (${detail})`, { cause: last.error })
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(intervalMs, deadline - performance.now()))))
  }
}
