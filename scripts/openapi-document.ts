import { buildApp, DEFAULT_SITE_URL } from '../app.ts'
import { createMemoryRateCounter } from '../storage/memory/index.ts'
import { createPgliteStorage } from '../storage/pglite/index.ts'

/**
 * The OpenAPI document of the whole app as `docs/openapi.json` holds it: the Pro edition, so every route is in it,
 * and the site URL a server variable, since it is each install's own (`SVC_SITE_URL`); the document an app serves at
 * `/openapi.json` names its own site URL instead.
 */
export async function buildOpenapiDocument (): Promise<Record<string, unknown>> {
  const storage = await createPgliteStorage({ dataDir: 'memory://' })
  const rateCounter = createMemoryRateCounter()
  try {
    const app = await buildApp({ storage, rateCounter, secrets: ['openapi-document-only-secret-32-bytes'], edition: 'pro' })
    try {
      await app.ready()
      const document = structuredClone(app.swagger()) as Record<string, unknown>
      document.servers = [{
        url: '{siteUrl}',
        description: "The shop's site URL.",
        variables: { siteUrl: { default: DEFAULT_SITE_URL, description: 'The install\'s `SVC_SITE_URL` (the demo\'s by default).' } }
      }]
      return document
    } finally {
      await app.close()
    }
  } finally {
    await rateCounter.close()
    await storage.close()
  }
}
