import { test } from 'tap'
import { LINE_ORIGINS } from '../../drawer/domain/analytics-report.ts'
import { CONDITION_TYPES } from '../../drawer/domain/conditions/index.ts'
import { ADMIN_CATALOGS } from '../../kernel/i18n/admin/catalogs.ts'
import en, { ADMIN_MESSAGE_IDS, type AdminMessages } from '../../kernel/i18n/admin/en.ts'
import { compileCatalog, placeholders } from '../../kernel/i18n/compile.ts'
import { LOCALES, type CompiledMessage, type Locale } from '../../kernel/i18n/locales.ts'
import { ANALYTICS_EVENT_TYPES } from '../../drawer/schemas/svc-pro-analytics.ts'
import { SettingsSchema } from '../../drawer/schemas/settings.ts'
import { lookup, useWords } from '../../drawer/client/admin/i18n.ts'
import { helpFor, labelFor, listWords, optionId, optionLabel, placeOf, sectionNote, sectionTitle } from '../../drawer/client/admin/labels.ts'
import { isConditionGroup, type Schema } from '../../drawer/client/admin/schema.ts'

/**
 * The admin screens' catalogs (i18n/admin/<locale>.ts): every locale says everything the English one says, with the
 * same placeholders, in ICU that compiles for its locale; and every word the screens look up by a setting's name, a
 * condition type, an analytics event or a product's status has its message in every locale, found by walking the
 * sources of those names (the settings schema, the conditions engine, the analytics schema), so a setting added
 * without its words fails here.
 */

const catalog = (locale: Locale): Record<string, string> => ADMIN_CATALOGS[locale]

for (const locale of LOCALES) {
  test(`the ${locale} admin catalog`, async (t) => {
    const messages = catalog(locale)
    t.same(Object.keys(messages).filter((id) => !(id in en)), [], 'no id the English catalog does not have')
    for (const id of ADMIN_MESSAGE_IDS) {
      const message = messages[id]
      if (message === undefined) {
        t.fail(`${locale} has no message ${id}`)
        continue
      }
      t.same(placeholders(message, locale).sort(), placeholders(en[id], 'en').sort(), `${id}: the placeholders of the English message`)
      t.not(message.trim(), '', `${id} is not empty`)
    }
    t.doesNotThrow(() => compileCatalog(messages, locale), 'every message compiles, with only the plural keys the locale has')
  })
}

test('a missing admin message is found (the check above fails on it)', async (t) => {
  const { 'settings.save': _, ...short } = ADMIN_CATALOGS.de
  t.notOk('settings.save' in short)
  t.ok(ADMIN_MESSAGE_IDS.some((id) => !(id in short)), 'the id list names it')
})

/** The pages the server writes format text and `{arguments}` only (plugins/admin-screens/i18n.ts). */
test('the server pages\' messages are text and arguments in every locale', async (t) => {
  const simple = (message: CompiledMessage) => typeof message === 'string' || message.every((part) => typeof part === 'string' || part[0] === 0)
  for (const locale of LOCALES) {
    const compiled = compileCatalog(catalog(locale), locale)
    const pages = ADMIN_MESSAGE_IDS.filter((id) => id.startsWith('page.'))
    t.same(pages.filter((id) => !simple(compiled[id]!)), [], `${locale}: no plural, select or number in a page.* message`)
  }
})

/** Typography the drawer's catalogs keep too: French spaces, Arabic punctuation, Japanese full stops. */
test('each language\'s punctuation', async (t) => {
  const outsideQuotes = (message: string) => message.replace(/'[^']*'/g, '')
  for (const [id, message] of Object.entries(catalog('fr'))) {
    t.notMatch(outsideQuotes(message), /[\p{L}\p{N})}][;?!%»]|[\p{L}\p{N})}]:(?!\/\/)|[ \u00a0][:;?!%»]|«[^\u202f]/u, `fr ${id}: a narrow no-break space before : ; ? ! % » and after «`)
  }
  for (const [id, message] of Object.entries(catalog('ar'))) {
    t.notMatch(outsideQuotes(message).replace(/\{[^{}]*\}/g, ''), /[\u0600-\u06ff] ?[,;?]/, `ar ${id}: Arabic comma, semicolon and question mark after Arabic words`)
  }
  for (const [id, message] of Object.entries(catalog('ja'))) {
    t.notMatch(message, /[\u3040-\u30ff\u4e00-\u9fff]\.( |$)/, `ja ${id}: 。 rather than a full stop after Japanese`)
  }
})

/** A setting's words as the screen looks them up: for every setting of the schema, in every locale. */
interface Needed { id: string, why: string }

function neededWords (): Needed[] {
  const needed: Needed[] = []
  const need = (id: string, why: string) => { needed.push({ id, why }) }
  const root = JSON.parse(JSON.stringify(SettingsSchema)) as Schema
  const walk = (schema: Schema, path: string[]) => {
    const key = path.join('.')
    if (isConditionGroup(schema)) return need(`label.${key}`, 'a condition group\'s label')
    if (key === 'language.texts') return need(`label.${key}`, 'the texts editor\'s heading')
    if (schema.type === 'object' && schema.properties) {
      if (path.length > 1) need(`label.${key}`, 'a fieldset\'s legend')
      for (const [name, child] of Object.entries(schema.properties)) walk(child, [...path, name])
      return
    }
    if (schema.type === 'array' && schema.items?.type === 'object') {
      need(`label.${key}`, 'a list\'s heading')
      for (const word of ['item', 'add', 'none', 'new']) need(`list.${key}.${word}`, `a list's ${word}`)
      return walk(schema.items, path)
    }
    need(`label.${key}`, 'a setting\'s label')
    need(`help.${key}`, 'a setting\'s help')
    for (const value of schema.enum ?? schema.items?.enum ?? []) need(optionId(path, value), 'a choice of a list')
  }
  for (const [section, schema] of Object.entries(root.properties ?? {})) {
    need(`section.${section}`, 'a section\'s title')
    if (schema.type === 'object') need(`note.${section}`, 'a section\'s introduction')
    walk(schema, [section])
  }
  for (const [type, definition] of CONDITION_TYPES) {
    need(`condition.type.${type}`, 'a condition type')
    for (const operator of definition.operators) need(`condition.operator.${operator}`, 'a condition operator')
  }
  for (const type of ANALYTICS_EVENT_TYPES) {
    need(`analytics.event.${type}`, 'an analytics event')
    need(`analytics.point.${type}`, 'a point of the analytics chart')
  }
  for (const source of LINE_ORIGINS) need(`analytics.source.${source}`, 'a drawer feature of the analytics')
  return needed
}

test('every setting, condition and analytics name has its words in every locale', async (t) => {
  const needed = neededWords()
  t.ok(needed.length > 150, `the walk finds the screen's words (${needed.length})`)
  for (const locale of LOCALES) {
    const messages = catalog(locale)
    t.same(needed.filter(({ id }) => !(id in messages)).map(({ id, why }) => `${id} (${why})`), [], `${locale}: every word the screens look up`)
  }
})

test('the labels resolve through the catalog of the screens\' language, not the English fallback', async (t) => {
  t.teardown(() => { useWords('en', null) })
  for (const locale of LOCALES) {
    const messages: Partial<AdminMessages> = ADMIN_CATALOGS[locale]
    useWords(locale, compileCatalog(catalog(locale), locale))
    t.equal(sectionTitle('drawer_config'), messages['section.drawer_config'], `${locale}: a section title`)
    t.equal(sectionNote('launcher'), messages['note.launcher'], `${locale}: a section note`)
    t.equal(labelFor(['launcher', 'hide_on_devices']), messages['label.launcher.hide_on_devices'], `${locale}: a label`)
    t.equal(labelFor(['bundles', 'bundles', 2, 'slots', 0, 'label']), messages['label.bundles.bundles.slots.label'], `${locale}: a label inside lists`)
    t.equal(helpFor(['rewards', 'tiers', 0, 'threshold']), messages['help.rewards.tiers.threshold'], `${locale}: a help text`)
    t.equal(optionLabel(['drawer_config', 'animation'], 'fade'), messages['option.drawer_config.animation.fade'], `${locale}: a choice`)
    t.equal(optionLabel(['recommendations', 'fallbacks'], 'best_sellers'), messages['option.recommendations.source.best_sellers'], `${locale}: a fallback's words are the source's`)
    t.equal(listWords(['smart_addons', 'addons']).add, messages['list.smart_addons.addons.add'], `${locale}: a list's button`)
    t.equal(lookup('label.no_such_setting'), null, `${locale}: a setting the catalogs do not know is not found`)
  }
  t.equal(labelFor(['launcher', 'no_such_setting']), 'No such setting', 'until its words are written, a label made from its key')
})

test('where a setting is, in the screens\' words', async (t) => {
  t.teardown(() => { useWords('en', null) })
  useWords('en', null)
  t.equal(placeOf('drawer_config.colors.primary'), 'Drawer › Colours › Button colour')
  t.equal(placeOf('smart_addons.addons.0.label'), 'Add-ons › Add-on 1 › Name shown to shoppers', 'the list named once, the item by its number')
  t.equal(placeOf('spotlight.conditions.conditions.1.value'), 'Spotlight › Show it when › Condition 2 › Value')
  t.equal(placeOf('smart_addons.addons.1.conditions.match'), 'Add-ons › Add-on 2 › Offer it when › How the conditions combine')
  useWords('de', compileCatalog(catalog('de'), 'de'))
  t.equal(placeOf('rewards.tiers.0.threshold'), 'Prämien › Stufen › Stufe 1 › Ab')
  t.equal(placeOf('spotlight.conditions.conditions.0.conditions.1.operator'), 'Hervorgehobenes Produkt › Zeigen, wenn › Bedingung 1 › Bedingung 2 › Vergleich',
    'a condition of a nested group, in the conditions\' own words')
  useWords('ar', compileCatalog(catalog('ar'), 'ar'))
  const place = placeOf('rewards.tiers.1.label')
  t.equal(place.replace(/[\u2068\u2069]/g, ''), 'المكافآت › المستويات › المستوى 2 › الاسم الظاهر للمتسوقين')
  t.match(place, /^\u2068\u2068\u2068المكافآت\u2069 › /, 'right to left, each part isolated (first strong isolate): the parts keep their order')
})
