import { buildInkShop } from './app.ts'

// Run from the repository root: npx tsx examples/own-cart-shop/server.ts (then open http://localhost:3200/).
const port = Number(process.env.PORT ?? 3200)
const { app } = await buildInkShop({
  secret: process.env.INK_SHOP_SECRET ?? 'ink-shop-example-secret-of-at-least-32-bytes',
  admin: { email: process.env.INK_SHOP_ADMIN_EMAIL ?? 'admin@ink.example', password: process.env.INK_SHOP_ADMIN_PASSWORD ?? 'nib-and-quill' },
  edition: process.env.INK_SHOP_EDITION === 'free' ? 'free' : 'pro',
  homeUrl: process.env.INK_SHOP_URL ?? `http://localhost:${port}`,
  logger: true
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { app.close().catch((error: unknown) => { app.log.error(error) }) })
await app.listen({ port, host: process.env.HOST ?? '127.0.0.1' })
