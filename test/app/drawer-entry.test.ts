import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'tap'
import * as drawer from '../../drawer/index.ts'
import * as platform from '../../app.ts'

/** The drawer's own entry (`cart-drawer-service/drawer`) carries the drawer, not the reference platform. */
test('the drawer entry exports the drawer and the host\'s helpers, and nothing of the reference platform', async (t) => {
  for (const name of ['cartDrawer', 'resolveCommercePort', 'CartActionError', 'applyCartChanges', 'DrawerFilters', 'giftTierOf', 'priceCart', 'svcProPlugin', 'createMemoryDrawerStores', 'migrateDrawer']) {
    t.ok(name in drawer, `the drawer entry has ${name}`)
  }
  for (const name of ['buildApp', 'shopPlugin', 'healthPlugin', 'htmlSecurityPlugin', 'DEFAULT_SITE_URL']) {
    t.notOk(name in drawer, `the drawer entry has no ${name}`)
    t.ok(name in platform, `the platform's entry has ${name}`)
  }
  t.same(Object.keys(drawer).filter((name) => !(name in platform)), [], 'the platform\'s entry re-exports all of the drawer\'s')
})

test('the example hosts import the package through its drawer, storage, errors and testing entries only', async (t) => {
  const root = join(import.meta.dirname, '..', '..', 'examples')
  for (const example of readdirSync(root)) {
    for (const file of readdirSync(join(root, example)).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(join(root, example, file), 'utf8')
      const entries = [...source.matchAll(/from '(cart-drawer-service[^']*)'/g)].map((match) => match[1])
      t.notOk(entries.includes('cart-drawer-service'), `${example}/${file} does not import the reference platform's entry`)
    }
  }
})
