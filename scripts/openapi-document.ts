import { buildApp, DEFAULT_SITE_URL } from '../app.ts'
import { createMemoryRateCounter } from '../storage/memory/index.ts'
import { createPgliteStorage } from '../storage/pglite/index.ts'

/** Where the committed document lives, relative to the project's root. */
export const OPENAPI_FILE = 'docs/openapi.json'

/** The file's text: two-space JSON and a final newline, so a regenerated file differs only where the routes do. */
export function openapiFileText (document: Record<string, unknown>): string {
  return JSON.stringify(document, null, 2) + '\n'
}

/**
 * The OpenAPI document of the whole app as `docs/openapi.json` holds it: the Pro edition, so every route is in it,
 * and the site URL a server variable, since it is each install's own (`SVC_SITE_URL`); the document an app serves at
 * `/openapi.json` names its own site URL instead. It is the same on every run: the app is built, never listens (no
 * port), and nothing in it depends on the time, the machine or the environment; paths and schemas keep the order in
 * which the routes are declared.
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
