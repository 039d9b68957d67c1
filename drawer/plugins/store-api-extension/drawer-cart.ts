import { createHash } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import {
  defaultItemPresentation, drawerCartState, MAX_ITEM_PRESENTATIONS, normaliseLockedKeys, svcCoupons, svcItemFields,
  type DrawerCartState, type ItemPresentation, type SvcItemFields
} from '../../domain/drawer-state.ts'
import type { PricedLine } from '../../../kernel/domain/types.ts'
import { storeApiCode } from '../../../kernel/errors/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { CartState, ResolvedCommercePort } from '../../port/index.ts'
import { FilterIssues, type FilterErrorCapture } from './filter-issues.ts'
import { CART_FILTER, checkCartExtension, checkPresentationRow, ITEM_FILTER, type OwnCartExtension } from './filter-output.ts'

export interface DrawerCartOptions {
  shop: ResolvedCommercePort
  settings: SettingsService
  capture: FilterErrorCapture
  log: FastifyBaseLogger
}

interface Locks {
  keys: string[]
  set: ReadonlySet<string>
}

const EMPTY_CART = { lines: [], coupons: [] }
/** Grows when the snapshot's bytes would change for the same cart (a new field of the drawer's state, say). */
const SNAPSHOT_FORMAT = 1

/**
 * The service's view of a cart, shared by `extensions.svc` (Store API), the `.svc-cart-json` fragment and the
 * `svc/v1` cart routes: per-line fields, presentation rows through `svc_cart_item_data`, the cart extension through
 * `svc_store_api_cart_extension_data`, the locked keys, and the drawer's cart state.
 */
export class DrawerCart {
  readonly #shop: ResolvedCommercePort
  readonly #settings: SettingsService
  readonly #capture: FilterErrorCapture
  readonly #log: FastifyBaseLogger
  /** One answer per cart state: the cart and each of its items ask for the same state's locks. */
  readonly #locks = new WeakMap<CartState, Locks>()
  #snapshotKey: { locks: number, key: string } | undefined
  #timedAt: { version: number, timed: boolean } | undefined

  constructor (options: DrawerCartOptions) {
    this.#shop = options.shop
    this.#settings = options.settings
    this.#capture = options.capture
    this.#log = options.log
  }

  /** The keys of the cart's locked lines, in cart order. */
  async lockedKeys (state: CartState): Promise<string[]> {
    return [...this.#locksOf(state).keys]
  }

  /** `extensions.svc` of one cart item; at once, not a promise: a cart of 100 lines asks 100 times. */
  itemExtension (line: PricedLine, state: CartState): SvcItemFields {
    return svcItemFields(line, this.#locksOf(state).set)
  }

  /** `extensions.svc` of the cart, after the filters, with the protected keys restored. */
  async cartExtension (state: CartState): Promise<Record<string, unknown>> {
    return this.#withIssues(async (issues) => {
      const locks = this.#locksOf(state)
      const { settings } = await this.#settings.at(state.settingsVersion)
      const own: OwnCartExtension = {
        drawer_config: settings.drawer_config,
        launcher: settings.launcher,
        coupons: svcCoupons(state.priced),
        item_presentations: await this.#presentations(state, locks, issues),
        optional_locked_keys: locks.keys
      }
      const { filters } = this.#shop
      if (!filters.has(CART_FILTER)) return { ...own }
      // The filter works on a copy: whatever it does to it, the service's own values stay as they were.
      const result: unknown = await filters.apply(CART_FILTER, structuredClone(own) as unknown as Record<string, unknown>, state)
      return checkCartExtension(result, own, issues)
    })
  }

  /** The presentation rows of the cart's first 100 lines, through `svc_cart_item_data`. */
  async itemPresentations (state: CartState): Promise<ItemPresentation[]> {
    return this.#withIssues(async (issues) => this.#presentations(state, this.#locksOf(state), issues))
  }

  /**
   * The drawer's cart state as JSON, the bytes a snapshot stores, or null when it must be computed on each read:
   * with coupons (their expiry makes the state depend on the time) or with `svc_cart_item_data` callbacks (code
   * whose output no version tells).
   */
  async snapshot (state: CartState): Promise<string | null> {
    const data = state.stored?.data ?? EMPTY_CART
    if (data.coupons.length > 0 || this.#shop.filters.has(ITEM_FILTER) || await this.#timed(state)) return null
    return JSON.stringify(await this.state(state))
  }

  /**
   * Whether views that carry this state's drawer data (the Store API cart with `extensions.svc`, the drawer data) may
   * be kept while the versions hold: as a snapshot, and with no `svc_store_api_cart_extension_data` callback either.
   */
  async cacheable (state: CartState): Promise<boolean> {
    const data = state.stored?.data ?? EMPTY_CART
    const { filters } = this.#shop
    return data.coupons.length === 0 && !filters.has(ITEM_FILTER) && !filters.has(CART_FILTER) && !(await this.#timed(state))
  }

  /** Whether the settings hold a condition on the date or the weekday: what they decide changes with the clock. */
  async #timed (state: CartState): Promise<boolean> {
    const { version, settings } = await this.#settings.at(state.settingsVersion)
    if (this.#timedAt?.version !== version) {
      this.#timedAt = { version, timed: /"type":"(?:date_range|weekday)"/.test(JSON.stringify(settings)) }
    }
    return this.#timedAt.timed
  }

  /**
   * What snapshots depend on besides the catalog and the settings: the snapshot format, the shop's configuration
   * and URLs, and the platform's locks (set by the Pro edition; a new locks function is a new key).
   */
  snapshotKey (): string {
    const locks = this.#shop.carts.lockedLinesGeneration
    if (this.#snapshotKey?.locks !== locks) {
      const key = createHash('sha256').update(JSON.stringify({
        format: SNAPSHOT_FORMAT,
        config: this.#shop.config,
        homeUrl: this.#shop.homeUrl,
        currency: this.#shop.currency
      })).digest('base64url').slice(0, 16)
      this.#snapshotKey = { locks, key: `${key}.${locks}` }
    }
    return this.#snapshotKey.key
  }

  /** The drawer's cart state (design §3.7): the fragment's JSON and the body of the `svc/v1` cart routes. */
  async state (state: CartState): Promise<DrawerCartState> {
    return this.#withIssues(async (issues) => {
      const locks = this.#locksOf(state)
      const rows = await this.#presentations(state, locks, issues)
      const shop = this.#shop
      return drawerCartState(state.priced, {
        currency: shop.currency,
        hash: state.hash,
        permalink: ({ product, parent, line }) => shop.productUrl(product, parent, line.variation),
        optionalLockedKeys: locks.keys,
        presentations: new Map(rows.map((row) => [row.key, row])),
        errorCode: storeApiCode
      })
    })
  }

  async #presentations (state: CartState, locks: Locks, issues: FilterIssues): Promise<ItemPresentation[]> {
    const { filters } = this.#shop
    const filtered = filters.has(ITEM_FILTER)
    const rows: ItemPresentation[] = []
    // In cart order, one line after the other, as WordPress runs filters: callbacks see a predictable sequence.
    for (const line of state.priced.lines.slice(0, MAX_ITEM_PRESENTATIONS)) {
      const own = defaultItemPresentation(line, svcItemFields(line, locks.set))
      if (!filtered) {
        rows.push(own)
        continue
      }
      const result: unknown = await filters.apply(ITEM_FILTER, structuredClone(own), line, state)
      rows.push(checkPresentationRow(result, own, issues))
    }
    return rows
  }

  #locksOf (state: CartState): Locks {
    let locks = this.#locks.get(state)
    if (locks === undefined) {
      // The platform's own locks (`CartService.setLockedLines`, set by the Pro edition for add-ons): one source for
      // what the drawer shows and what the cart refuses.
      const keys = normaliseLockedKeys(state.priced, [...this.#shop.carts.lockedLines(state.stored?.data ?? EMPTY_CART)])
      locks = { keys, set: new Set(keys) }
      this.#locks.set(state, locks)
    }
    return locks
  }

  /**
   * Runs `work` with filter problems collected, then logs each (filter, part) once. Only callbacks can throw: without
   * a drawer filter there is nothing to capture, and the work runs outside a capture scope (which costs every promise
   * made while one is open).
   */
  async #withIssues<T> (work: (issues: FilterIssues) => Promise<T>): Promise<T> {
    const issues = new FilterIssues()
    const { filters } = this.#shop
    try {
      if (!filters.has(ITEM_FILTER) && !filters.has(CART_FILTER)) return await work(issues)
      return await this.#capture.run(issues, () => work(issues))
    } finally {
      issues.flush(this.#log)
    }
  }
}
