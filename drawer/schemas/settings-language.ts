import { Type, type Static } from 'typebox'
import { LOCALES, type Locale } from '../../kernel/i18n/locales.ts'

/** The settings' `language` section: the shop's locale and its own texts for the drawer. */

/** The shop's own words for one locale: message id → ICU message (an empty string: the catalog's own text). */
const TextsSchema = Type.Record(Type.String({ pattern: '^[a-zA-Z][a-zA-Z0-9]{0,63}$' }), Type.String({ maxLength: 1000 }), {
  default: {},
  maxProperties: 200,
  description: 'Message id → ICU message replacing the catalog\'s (same placeholders); an empty string keeps the catalog\'s text.'
})

export const LanguageSchema = Type.Object({
  locale: Type.Enum([...LOCALES], {
    default: 'en',
    description: 'The shop\'s language: the drawer\'s words when the page\'s `<html lang>` is not a supported language.'
  }),
  texts: Type.Object(Object.fromEntries(LOCALES.map((locale) => [locale, TextsSchema])) as Record<Locale, typeof TextsSchema>, {
    additionalProperties: false,
    description: 'The shop\'s own texts for the drawer, by locale. Each is checked: a known message id, valid ICU, the same placeholders as the catalog\'s message.'
  })
}, { additionalProperties: false, title: 'SvcLanguage', description: 'The drawer\'s language and the shop\'s own texts.' })
export type LanguageSettings = Static<typeof LanguageSchema>
