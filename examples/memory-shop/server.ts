import { buildTeaShop } from './app.ts'

// Run from the repository root: npx tsx examples/memory-shop/server.ts (then open http://localhost:3100/).
const port = Number(process.env.PORT ?? 3100)
const secret = process.env.TEA_SHOP_SECRET ?? 'tea-shop-example-secret-of-at-least-32-bytes'
const { app } = await buildTeaShop({
  secret,
  admin: { email: process.env.TEA_SHOP_ADMIN_EMAIL ?? 'admin@tea.example', password: process.env.TEA_SHOP_ADMIN_PASSWORD ?? 'steep-and-sip' },
  homeUrl: process.env.TEA_SHOP_URL ?? `http://localhost:${port}`,
  logger: true
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { app.close().catch((error: unknown) => { app.log.error(error) }) })
await app.listen({ port, host: process.env.HOST ?? '127.0.0.1' })
