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
})
