import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { test } from 'tap'

/** `npm run build:client` prints the script's size minified and gzipped, and passes only within 15 KiB gzipped. */
test('the drawer script is one minified file within 15 KiB gzipped, and the build says so', async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build-client.ts'], { encoding: 'utf8' })
  t.comment(stdout.trim())
  const sizes = /minified ([\d.]+) KiB \((\d+) bytes\), gzipped ([\d.]+) KiB \((\d+) bytes\); budget 15\.00 KiB \(15360 bytes\) gzipped: ok/.exec(stdout)
  t.ok(sizes, 'the build printed both sizes and the budget')
  const gzipped = Number(sizes?.[4])
  t.ok(gzipped > 0 && gzipped <= 15 * 1024, `gzipped ${gzipped} bytes ≤ 15360`)
  t.ok(Number(sizes?.[2]) > gzipped, 'minified is larger than gzipped')
  const catalogs = /catalogs fetched per locale \(en is in the script\), gzipped: (.*)/.exec(stdout)
  t.ok(catalogs, 'the build printed what each other locale\'s catalog adds')
  const each = [...(catalogs?.[1] ?? '').matchAll(/(\w+) (\d+) bytes/g)]
  t.same(each.map((match) => match[1]), ['de', 'fr', 'es', 'ar', 'ja'])
  for (const [, locale, bytes] of each) t.ok(Number(bytes) > 0 && Number(bytes) <= 2048, `${locale}: ${bytes} bytes gzipped, at most 2 KiB`)
})
