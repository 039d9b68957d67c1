import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { test } from 'tap'
import { MAX_GZIPPED_BYTES } from '../../drawer/index.ts'

/** `npm run build:client` prints the script's size minified and gzipped, and passes only within 15.25 KiB gzipped. */
test('the drawer script is one minified file within 15.25 KiB gzipped, and the build says so', async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build-client.ts'], { encoding: 'utf8' })
  t.comment(stdout.trim())
  const budget = `budget ${(MAX_GZIPPED_BYTES / 1024).toFixed(2)} KiB (${MAX_GZIPPED_BYTES} bytes) gzipped: ok`.replace(/[.()]/g, '\\$&')
  const sizes = new RegExp(String.raw`minified ([\d.]+) KiB \((\d+) bytes\), gzipped ([\d.]+) KiB \((\d+) bytes\); ` + budget).exec(stdout)
  t.ok(sizes, 'the build printed both sizes and the budget')
  const gzipped = Number(sizes?.[4])
  t.ok(gzipped > 0 && gzipped <= MAX_GZIPPED_BYTES, `gzipped ${gzipped} bytes ≤ ${MAX_GZIPPED_BYTES}`)
  t.ok(Number(sizes?.[2]) > gzipped, 'minified is larger than gzipped')
  const catalogs = /catalogs fetched per locale \(en is in the script\), gzipped: (.*)/.exec(stdout)
  t.ok(catalogs, 'the build printed what each other locale\'s catalog adds')
  const each = [...(catalogs?.[1] ?? '').matchAll(/(\w+) (\d+) bytes/g)]
  t.same(each.map((match) => match[1]), ['de', 'fr', 'es', 'ar', 'ja'])
  for (const [, locale, bytes] of each) t.ok(Number(bytes) > 0 && Number(bytes) <= 2048, `${locale}: ${bytes} bytes gzipped, at most 2 KiB`)
})
