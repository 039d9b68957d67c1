import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'tap'
import { bundleLoader, describeBundle, type ClientBundle } from '../../../kernel/lib/index.ts'

test('a script is read once from its built file', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'svc-bundle-'))
  const path = join(folder, 'built.js')
  await writeFile(path, 'console.log("built")')
  let bundled = 0
  const load = bundleLoader(path, async () => { bundled++; return describeBundle(Buffer.from('')) }, () => {})
  const first = await load()
  t.equal(first.code.toString(), 'console.log("built")')
  t.equal(first.hash, describeBundle(Buffer.from('console.log("built")')).hash, 'hashed from its content')
  await writeFile(path, 'console.log("changed")')
  t.equal(await load(), first, 'the same bundle on later calls')
  t.equal(bundled, 0, 'nothing was bundled')
})

test('without a built file the script is bundled in memory, and a failed bundling is tried again', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'svc-bundle-'))
  let missing = 0
  let attempts = 0
  const load = bundleLoader(join(folder, 'absent.js'), async (): Promise<ClientBundle> => {
    attempts++
    if (attempts === 1) throw new Error('bundling failed')
    return describeBundle(Buffer.from('console.log("in memory")'))
  }, () => { missing++ })
  await t.rejects(load(), { message: 'bundling failed' })
  const bundle = await load()
  t.equal(bundle.code.toString(), 'console.log("in memory")')
  t.equal(attempts, 2, 'the failure was not kept')
  t.equal(missing, 2, 'the missing file was reported on each attempt')
  t.equal(await load(), bundle)
})
