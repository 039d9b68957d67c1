/** The `SettingsStore` contract: one document, versioned, saved with an expected version. */
import { drawerStoreContract } from './contract.ts'

drawerStoreContract('SettingsStore', 'settings', async (t, storage) => {
  t.test('settings', async (t) => {
    t.equal(await storage.getSettings(), null, 'null before the first save')
    t.equal(await storage.saveSettings({ a: 1 }, 3), null, 'a version that does not exist conflicts')
    t.strictSame(await storage.saveSettings({ a: 1 }, 0), { document: { a: 1 }, version: 1 })
    t.equal(await storage.saveSettings({ a: 2 }, 0), null, '0 conflicts once settings exist')
    t.strictSame(await storage.saveSettings({ a: 2, nested: { b: [1, 2] } }, 1), { document: { a: 2, nested: { b: [1, 2] } }, version: 2 })
    t.equal(await storage.saveSettings({ a: 3 }, 1), null, 'a stale version conflicts')
    t.strictSame(await storage.saveSettings({ a: 4 }), { document: { a: 4 }, version: 3 }, 'without a version the save always wins')
    t.strictSame(await storage.getSettings(), { document: { a: 4 }, version: 3 })

    const racing = await Promise.all([storage.saveSettings({ racer: 1 }, 3), storage.saveSettings({ racer: 2 }, 3)])
    t.equal(racing.filter((saved) => saved === null).length, 1, 'of two saves from one version, one conflicts')
    t.equal((await storage.getSettings())?.version, 4)
  })

  t.test('the settings read is the caller\'s to change', async (t) => {
    const document = { list: [1], nested: { on: true } }
    const saved = await storage.saveSettings(document)
    document.list.push(2)
    saved!.document.extra = true
    const read = await storage.getSettings()
    t.strictSame(read?.document, { list: [1], nested: { on: true } })
    ;(read!.document.nested as { on: boolean }).on = false
    t.strictSame((await storage.getSettings())?.document, { list: [1], nested: { on: true } })
  })
})
