import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core'
import { test, type Test } from 'tap'
import { buildApp, type AppOptions } from '../../app.ts'
import { DEFAULT_DEMO_USERS } from '../../config/env.ts'
import { demoShopConfig } from '../../seed/demo-config.ts'
import { seedDemoShop, seedDemoUsers } from '../../seed/seed.ts'
import { buildAdmin, buildClient } from '../../scripts/build-client.ts'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import { TEST_PASSWORD_HASHING } from '../helper.ts'
import { createTestPgliteStorage } from '../helpers/pglite.ts'

/** Debian's Chromium with the flags that work on these machines (toolchain notes, "Browser tests"). */
export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'
]

export const SHOPPER = DEFAULT_DEMO_USERS.shopper
export const ADMIN = DEFAULT_DEMO_USERS.admin
export const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots')

export const DESKTOP = { width: 1280, height: 860 }
export const MOBILE = { width: 390, height: 844 }

interface TapLike {
  teardown (fn: () => unknown): void
}

/** The path of `chromium` on this machine, or null. */
export function chromiumPath (): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || null
  } catch {
    return null
  }
}

/**
 * A browser test: skipped on a development machine without Chromium, and FAILED under `CI=true` without it
 * (`.ci/run` installs Chromium first), so CI cannot pass without running it.
 */
export function browserTest (name: string, fn: (t: Test) => Promise<void>): void {
  if (chromiumPath() !== null) {
    test(name, fn)
  } else if (process.env.CI === 'true') {
    test(name, async (t) => { t.fail('Chromium is not installed (apt-get install -y chromium), and CI=true: the browser tests must run') })
  } else {
    test(name, { skip: 'Chromium is not installed (apt-get install -y chromium)' }, async () => {})
  }
}

export async function launchBrowser (t: TapLike): Promise<Browser> {
  const executablePath = chromiumPath()
  if (executablePath === null) throw new Error('Chromium is not installed')
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS })
  t.teardown(() => browser.close())
  return browser
}

async function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

export interface Shop {
  url: string
  app: FastifyInstance
}

let built: Promise<unknown> | undefined

/**
 * The whole app on 127.0.0.1 with a random port, PGlite in memory, the demo shop and users seeded, the drawer
 * script freshly built; `settings` are saved before the first page.
 */
export async function startShop (t: TapLike, options: { edition?: 'free' | 'pro', settings?: Record<string, unknown>, app?: Partial<AppOptions> } = {}): Promise<Shop> {
  built ??= Promise.all([buildClient(), buildAdmin()])
  await built
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const storage = await createTestPgliteStorage()
  await seedDemoShop(storage, url)
  await seedDemoUsers(storage, DEFAULT_DEMO_USERS, TEST_PASSWORD_HASHING)
  const rateCounter = createMemoryRateCounter()
  const app = await buildApp({
    storage,
    rateCounter,
    secrets: ['browser-test-secret-that-is-at-least-32-bytes'],
    siteUrl: url,
    edition: options.edition ?? 'free',
    shop: demoShopConfig,
    passwordHashing: TEST_PASSWORD_HASHING,
    ...options.app
  })
  t.teardown(async () => {
    await app.close()
    await Promise.allSettled([storage.close(), rateCounter.close()])
  })
  if (options.settings) {
    const saved = await app.settings.save(options.settings)
    if (!saved.ok) throw new Error(`test settings refused: ${JSON.stringify(saved)}`)
  }
  await app.listen({ port, host: '127.0.0.1' })
  return { url, app }
}

/** A fresh browser context (its own cookies: its own cart) with one page, its console errors collected. */
export async function newPage (browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext, page: Page, errors: string[] }> {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce', ...options })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  // Refused requests are logged by Chromium as "Failed to load resource": expected in these tests, not script errors.
  page.on('console', (message) => { if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text()) })
  return { context, page, errors }
}

/** Opens a storefront page and waits until the drawer has its Cart-Token and its data. */
export async function openShop (page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.waitForSelector('[data-svc="root"][data-state="ready"]', { state: 'attached' })
}

export async function screenshot (page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const path = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path })
  return path
}

/** The drawer's lines as `name × quantity`. */
export async function drawerLines (page: Page): Promise<string[]> {
  return page.$$eval('[data-svc="drawer"] .svc-line', (lines) => lines.map((line) => {
    const name = line.querySelector('.svc-name')?.textContent ?? ''
    const input = line.querySelector('input')
    const quantity = input ? input.value : (line.querySelector('.svc-controls .svc-meta')?.textContent ?? '').replace(/\D+/g, '')
    return `${name} × ${quantity}`
  }))
}

/** What the focused element is, for keyboard assertions. */
export function focused (page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const element = document.activeElement
    if (!element || element === document.body) return 'body'
    return element.getAttribute('data-svc') || element.getAttribute('data-fk') || element.getAttribute('aria-label') || element.tagName.toLowerCase()
  })()`)
}

export function inDrawer (page: Page): Promise<boolean> {
  return page.evaluate('document.getElementById("svc-drawer").contains(document.activeElement)')
}

export interface SeenRequest {
  method: string
  url: string
  type: string
  headers: Record<string, string>
  body: string | null
}

/**
 * Every request the page makes, in order, and the position of each add-to-cart response among them: both are
 * recorded by listeners on the same event stream, so "after the response" is exact.
 */
export class Traffic {
  readonly requests: SeenRequest[] = []
  readonly addResponses: number[] = []

  constructor (page: Page) {
    page.on('request', (request) => {
      this.requests.push({ method: request.method(), url: request.url(), type: request.resourceType(), headers: request.headers(), body: request.postData() })
    })
    page.on('response', (response) => {
      if (response.url().includes('wc-ajax=add_to_cart')) this.addResponses.push(this.requests.length)
    })
  }

  /** Requests made after the last add-to-cart response. */
  afterLastAdd (): SeenRequest[] {
    const at = this.addResponses[this.addResponses.length - 1]
    return at === undefined ? [] : this.requests.slice(at)
  }

  mark (): number {
    return this.requests.length
  }

  since (mark: number, path?: string): SeenRequest[] {
    return this.requests.slice(mark).filter((request) => path === undefined || request.url.includes(path))
  }
}

/** The drawer's panel. */
export const drawer = '[data-svc="drawer"]'

/** Adds a product with the storefront's button (the classic AJAX add to cart) and waits for the drawer to open. */
export async function addFromShop (page: Page, productId: number): Promise<void> {
  const response = page.waitForResponse((r) => r.url().includes('wc-ajax=add_to_cart'))
  await page.click(`button.add-to-cart[data-product-id="${productId}"]`)
  await response
  await page.waitForSelector(`${drawer}:not([hidden])`)
}

/** Logs the page's context in (the session cookie) through the platform's login route. */
export async function logInAs (page: Page, who: { email: string, password: string }): Promise<void> {
  const response = await page.request.post(new URL('/account/login', page.url()).href, { data: who })
  if (!response.ok()) throw new Error(`login of ${who.email} failed: ${response.status()}`)
}

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  targets: string[]
}

let axeSource: string | undefined

/**
 * Runs axe-core in the page (injected through the DevTools protocol, so the page's Content-Security-Policy does not
 * stop it) and returns the violations of serious or critical impact, each with the selectors of its elements.
 */
export async function seriousAxeViolations (page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
  await page.evaluate(axeSource)
  return page.evaluate(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] })
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => node.target.join(' ')) }))
  })()`)
}

/** Pro settings with every widget on: an add-on, a bundle, a spotlight, three reward tiers; the launcher shows its total. */
const always = { match: 'all', conditions: [] }

/** One free-shipping tier from $50.00. */
export const FREE_SHIPPING_TIER = { id: 'free-shipping', label: 'Free shipping', reward: 'free_shipping', threshold: 5000, amount: 0, product_id: 0, conditions: always }
export const PRO_WIDGET_SETTINGS = {
  launcher: { position: 'bottom-right', show_count: true, show_total: true },
  rewards: {
    tiers: [
      { ...FREE_SHIPPING_TIER, threshold: 10000 },
      { id: 'ten-off', label: '10% off', reward: 'percent_discount', threshold: 15000, amount: 10, product_id: 0, conditions: always },
      { id: 'pick', label: 'A free guitar pick', reward: 'gift', threshold: 20000, amount: 0, product_id: 118, conditions: always }
    ]
  },
  smart_addons: {
    enabled: true,
    addons: [{ id: 'gift-wrap', product_id: 116, label: 'Gift wrap', description: 'Wrapped with a ribbon and a card.', conditions: always }]
  },
  bundles: {
    enabled: true,
    bundles: [{
      id: 'head-to-toe',
      title: 'Head to toe',
      description: 'A hat and a belt, 15 % off both.',
      discount_percent: 15,
      slots: [{ label: 'Hat', product_ids: [101, 103] }, { label: 'Belt', product_ids: [102] }]
    }]
  },
  spotlight: { enabled: true, product_id: 104, title: 'Ready for the sun?', text: 'Polarised sunglasses to finish the look.', conditions: always }
}
