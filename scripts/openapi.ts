// Writes the OpenAPI document of the whole app (Pro edition, so every route is in it) to docs/openapi.json.
import { writeFile } from 'node:fs/promises'
import { buildApp } from '../app.ts'
import { createMemoryRateCounter } from '../storage/memory/index.ts'
import { createPgliteStorage } from '../storage/pglite/index.ts'

const storage = await createPgliteStorage({ dataDir: 'memory://' })
const rateCounter = createMemoryRateCounter()
const app = await buildApp({ storage, rateCounter, secrets: ['openapi-document-only-secret-32-bytes'], edition: 'pro' })
await app.ready()
const target = process.argv[2] ?? 'docs/openapi.json'
await writeFile(target, JSON.stringify(app.swagger(), null, 2) + '\n')
console.log(`OpenAPI document written to ${target}`)
await app.close()
await rateCounter.close()
await storage.close()
