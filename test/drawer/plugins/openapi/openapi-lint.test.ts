import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'tap'
import { buildOpenapiDocument } from '../../../../scripts/openapi-document.ts'

/**
 * Redocly CLI lints the OpenAPI document as `npm run lint:openapi` does (the document of scripts/openapi.ts, the
 * recommended rules with the project's redocly.yaml): no error and no warning. Offline: telemetry and the update
 * notice are off, so the CLI opens no connection.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const REDOCLY = join(ROOT, 'node_modules', '.bin', 'redocly')

type Json = Record<string, any>

interface LintReport {
  totals: { errors: number, warnings: number, ignored: number }
  problems: Array<{ ruleId: string, severity: string, message: string, location: Array<{ pointer: string }> }>
}

/** Redocly's JSON report of one document (it exits non-zero when it finds errors: the report is read all the same). */
async function lint (file: string): Promise<LintReport> {
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(REDOCLY, ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', '--max-problems', '1000'], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024
    }, (error, out, err) => {
      if (out.trim().startsWith('{')) resolve(out)
      else reject(error ?? new Error(`redocly printed no report: ${err}`))
    })
  })
  return JSON.parse(stdout) as LintReport
}

const lines = (report: LintReport) => report.problems.map((problem) =>
  `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ''}: ${problem.message}`)

test('redocly lint finds no error and no warning in the OpenAPI document', async (t) => {
  const directory = await mkdtemp(join(tmpdir(), 'openapi-lint-'))
  t.teardown(() => rm(directory, { recursive: true, force: true }))
  const document = await buildOpenapiDocument()
  const file = join(directory, 'openapi.json')
  await writeFile(file, JSON.stringify(document, null, 2))

  const report = await lint(file)
  t.same(lines(report), [], 'no problem')
  t.same(report.totals, { errors: 0, warnings: 0, ignored: 0 })

  t.test('the lint does catch what it is for', async (t) => {
    // A document with the faults this project had: a query string in a path, operations without an operationId or
    // security, no client error, and a success answer gone.
    const broken = structuredClone(document) as Json
    broken.paths['/?wc-ajax=add_to_cart'] = { post: { ...broken.paths['/'].post, operationId: 'wcAjaxAddToCart' } }
    delete broken.paths['/wp-json/svc/v1/cart'].get.operationId
    delete broken.paths['/wp-json/svc/v1/cart'].get.security
    delete broken.paths['/account/rest-nonce'].get.responses['401']
    delete broken.paths['/wp-json/svc/v1/coupon'].post.responses['200']
    const brokenFile = join(directory, 'broken.json')
    await writeFile(brokenFile, JSON.stringify(broken))
    const found = new Set((await lint(brokenFile)).problems.map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer}`))
    for (const expected of [
      'path-not-include-query #/paths/~1?wc-ajax=add_to_cart',
      'operation-operationId #/paths/~1wp-json~1svc~1v1~1cart/get/operationId',
      'security-defined #/paths/~1wp-json~1svc~1v1~1cart/get',
      'rule/operation-4xx-response #/paths/~1account~1rest-nonce/get/responses',
      'rule/operation-2xx-or-3xx-response #/paths/~1wp-json~1svc~1v1~1coupon/post/responses'
    ]) t.ok(found.has(expected), expected)
  })
})
