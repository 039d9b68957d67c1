import { test } from 'tap'
import { PGlite } from '@electric-sql/pglite'
import { pgliteStartParams } from '../../storage/pglite/index.ts'
import { createTestPgliteClient, createTestPgliteStorage, TEST_PGLITE_SETTINGS } from '../helpers/pglite.ts'

test('settings are added to PGlite\'s own start parameters, as -c name=value', async (t) => {
  t.equal(pgliteStartParams(), undefined, 'none given: PGlite starts as it chooses')
  t.equal(pgliteStartParams({}), undefined)
  const params = pgliteStartParams({ shared_buffers: '16MB', 'auto_explain.log_min_duration': '0' })
  t.same(params, [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'auto_explain.log_min_duration=0'])
})

test('a name that is not a setting\'s is refused, so no flag reaches the server\'s command line', async (t) => {
  for (const name of ['--single', '-D', 'shared buffers', 'Shared_Buffers', '', 'work_mem=1MB -c x']) {
    t.throws(() => pgliteStartParams({ [name]: '1' }), TypeError, JSON.stringify(name))
  }
})

test('the test databases run with the settings the helper gives, and answer as before', async (t) => {
  const client = await createTestPgliteClient()
  t.teardown(() => client.close())
  const { rows } = await client.query<{ shared_buffers: string }>('SHOW shared_buffers')
  t.equal(rows[0]?.shared_buffers, TEST_PGLITE_SETTINGS.shared_buffers)

  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  t.same(await storage.getProducts([1]), new Map(), 'a migrated storage answers')
})
