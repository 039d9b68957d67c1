/**
 * The drawer stores' contract runs on every place the stores live: inside the reference storage (memory, PGlite,
 * PostgreSQL: their writes join its transactions) and on their own (in memory; on a PGlite or PostgreSQL database
 * holding the drawer's migrations only, as a host with a database of its own sets them up).
 */
import { test, type Test } from 'tap'
import { createMemoryDrawerStores, createSqlDrawerStores, type DrawerStores } from '../../../drawer/index.ts'
import { storageBackends } from '../../helpers/storage-backends.ts'
import { contract } from '../../storage/fixtures/contract.ts'

export function drawerStoreContract<K extends keyof DrawerStores> (
  name: string,
  kind: K,
  body: (t: Test, store: DrawerStores[K]) => Promise<void>
): void {
  contract(name, (t, storage) => body(t, storage))
  test(`${name} (the drawer's own, in memory)`, async (t) => {
    await body(t, createMemoryDrawerStores()[kind])
  })
  for (const backend of storageBackends()) {
    test(`${name} (the drawer's own, on ${backend.name} with its migrations only)`, { skip: backend.skip }, async (t) => {
      const { clients: [client], dispose } = await backend.createBareClients()
      t.teardown(dispose)
      await body(t, (await createSqlDrawerStores(client))[kind])
    })
  }
}
