import type { Locale } from './locales.ts'
import en, { type Messages } from './en.ts'
import de from './de.ts'
import fr from './fr.ts'
import es from './es.ts'
import ar from './ar.ts'
import ja from './ja.ts'

/** Every catalog, by locale (the ICU sources). A new locale is a file here and a member of `LOCALES`. */
export const CATALOGS: Record<Locale, Messages> = { en, de, fr, es, ar, ja }
