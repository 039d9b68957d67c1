import { test } from 'tap'
import { CATALOGS } from '../../../kernel/i18n/catalogs.ts'
import { compileCatalog, placeholders } from '../../../kernel/i18n/compile.ts'
import en, { MESSAGE_IDS } from '../../../kernel/i18n/en.ts'
import { LOCALES } from '../../../kernel/i18n/locales.ts'

/** Every catalog says everything the English one says, with the same placeholders, in ICU that compiles for its locale. */
for (const locale of LOCALES) {
  test(`the ${locale} catalog`, async (t) => {
    const catalog: Record<string, string> = CATALOGS[locale]
    t.same(Object.keys(catalog).filter((id) => !(id in en)), [], 'no id the English catalog does not have')
    for (const id of MESSAGE_IDS) {
      const message = catalog[id]
      if (message === undefined) {
        t.fail(`${locale} has no message ${id}`)
        continue
      }
      t.same(placeholders(message, locale).sort(), placeholders(en[id], 'en').sort(), `${id}: the placeholders of the English message`)
      t.not(message.trim(), '', `${id} is not empty`)
    }
    t.doesNotThrow(() => compileCatalog(catalog, locale), 'every message compiles, with only the plural keys the locale has')
  })
}

test('a missing message is found (the check above fails on it)', async (t) => {
  const { checkout: _, ...short } = CATALOGS.de
  t.notOk('checkout' in short)
  t.ok(MESSAGE_IDS.some((id) => !(id in short)), 'the id list names it')
})
