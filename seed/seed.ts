import { hashPassword, MANAGE_SHOP } from '../plugins/shop/index.ts'
import type { Storage } from '../storage/types.ts'
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

/** The shop manager (capability `manage_shop`) and the shopper, each when given; an existing user keeps its password. */
export async function seedDemoUsers (storage: Storage, users: DemoUsers): Promise<void> {
  if (users.admin) {
    await storage.ensureUser({
      email: users.admin.email,
      displayName: 'Shop Manager',
      passwordHash: await hashPassword(users.admin.password),
      capabilities: [MANAGE_SHOP, 'read']
    })
  }
  if (users.shopper) {
    await storage.ensureUser({
      email: users.shopper.email,
      displayName: 'Sam Shopper',
      passwordHash: await hashPassword(users.shopper.password),
      capabilities: ['read']
    })
  }
}
