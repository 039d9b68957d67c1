import { readFile } from 'node:fs/promises'
import { isDeepStrictEqual } from 'node:util'
import { test } from 'tap'
import { buildOpenapiDocument, OPENAPI_FILE, openapiFileText } from '../../../../scripts/openapi-document.ts'

/**
 * The committed `docs/openapi.json` is the document `npm run openapi` writes (scripts/openapi.ts): built the same way,
 * in this process, and compared with the file as data. A route changed without `npm run openapi` fails here. The
 * document is the same on every build: no time, no port, the routes' own order.
 */

const ROOT = new URL('../../../../', import.meta.url)
const OUT_OF_DATE = 'docs/openapi.json is out of date: run npm run openapi'

type Json = unknown

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1')

/** JSON pointers where two documents differ, at most `limit` of them, to name the drift in the failure. */
function differences (a: Json, b: Json, pointer = '', found: string[] = [], limit = 20): string[] {
  if (found.length >= limit || isDeepStrictEqual(a, b)) return found
  const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)
  if (!bothObjects) {
    found.push(pointer === '' ? '/' : pointer)
    return found
  }
  const left = a as Record<string, Json>
  const right = b as Record<string, Json>
  const keys = new Set([...Object.keys(left), ...Object.keys(right)])
  for (const key of keys) {
    const child = `${pointer}/${escapePointer(key)}`
    if (!Object.hasOwn(left, key)) found.push(`${child} (only in docs/openapi.json)`)
    else if (!Object.hasOwn(right, key)) found.push(`${child} (only in the routes' document)`)
    else differences(left[key], right[key], child, found, limit)
    if (found.length >= limit) break
  }
  return found
}

/** The document as the file holds it (JSON text read back), so values JSON leaves out do not count. */
const asWritten = (document: Record<string, unknown>): Json => JSON.parse(openapiFileText(document))

test('docs/openapi.json is the document npm run openapi writes', async (t) => {
  const committed: Json = JSON.parse(await readFile(new URL(OPENAPI_FILE, ROOT), 'utf8'))
  const generated = asWritten(await buildOpenapiDocument())
  const upToDate = isDeepStrictEqual(generated, committed)
  t.ok(upToDate, upToDate ? 'docs/openapi.json is up to date' : OUT_OF_DATE,
    upToDate ? {} : { differences: differences(generated, committed) })

  t.test('the document is the same on every build: no time, no port', async (t) => {
    const again = asWritten(await buildOpenapiDocument())
    t.same(differences(again, generated), [], 'a second build gives the same document')
    const text = JSON.stringify(generated)
    t.notMatch(text, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, 'no timestamp')
    const [server] = (generated as { servers: Array<{ url: string }> }).servers
    t.equal(server?.url, '{siteUrl}', 'the server is the {siteUrl} variable, not an address the app listened on')
  })

  t.test('the comparison does catch a drift', async (t) => {
    const changed = structuredClone(generated) as Record<string, any>
    changed.paths['/wp-json/svc/v1/cart'].get.summary = 'changed'
    delete changed.paths['/wp-json/svc/v1/coupon']
    t.notOk(isDeepStrictEqual(changed, generated), 'a changed document is not equal')
    t.same(differences(generated, changed), [
      '/paths/~1wp-json~1svc~1v1~1cart/get/summary',
      '/paths/~1wp-json~1svc~1v1~1coupon (only in the routes\' document)'
    ], 'and the drift is named by its JSON pointers')
  })
})
