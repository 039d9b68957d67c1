import { hashPassword, MANAGE_SHOP, OWASP_SCRYPT, type ScryptParams } from '../hosts/reference-shop/index.ts'
import type { Storage } from '../storage/contract/index.ts'
import { demoCoupons, demoProducts } from './demo-catalog.ts'

/** Seeds the demo shop once per database: a restart, or a second instance, keeps what is there. */
export async function seedDemoShop (storage: Storage, homeUrl: string): Promise<boolean> {
  const marker = `seeded-${process.pid}-${Date.now()}`
  const winner = await storage.getOrCreateMeta('demo_seed', () => marker)
  if (winner !== marker) return false
  await storage.upsertProducts(demoProducts(homeUrl.replace(/\/+$/, '')))
  await storage.upsertCoupons(demoCoupons)
  return true
}

export interface DemoUsers {
  admin?: { email: string, password: string }
  shopper?: { email: string, password: string }
}

/**
 * The shop manager (capability `manage_shop`) and the shopper, each when given; an existing user keeps its password.
 * Their passwords are hashed with `passwordHashing` (OWASP's scrypt parameters unless given: the tests pass cheaper ones).
 */
export async function seedDemoUsers (storage: Storage, users: DemoUsers, passwordHashing: ScryptParams = OWASP_SCRYPT): Promise<void> {
  // An existing user keeps its password: no hash is made for it (at OWASP's parameters each takes 128 MiB).
  if (users.admin && await storage.getUserByEmail(users.admin.email) === null) {
    await storage.ensureUser({
      email: users.admin.email,
      displayName: 'Shop Manager',
      passwordHash: await hashPassword(users.admin.password, passwordHashing),
      capabilities: [MANAGE_SHOP, 'read']
    })
  }
  if (users.shopper && await storage.getUserByEmail(users.shopper.email) === null) {
    await storage.ensureUser({
      email: users.shopper.email,
      displayName: 'Sam Shopper',
      passwordHash: await hashPassword(users.shopper.password, passwordHashing),
      capabilities: ['read']
    })
  }
}
