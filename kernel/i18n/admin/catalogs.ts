import type { Locale } from '../locales.ts'
import en, { type AdminMessages } from './en.ts'
import de from './de.ts'
import fr from './fr.ts'
import es from './es.ts'
import ar from './ar.ts'
import ja from './ja.ts'

/**
 * The admin screens' catalogs, by locale (the ICU sources): the same locales as the drawer's (kernel/i18n/locales.ts). Only
 * the server and the tests import this file: the admin script carries English alone and fetches the others.
 */
export const ADMIN_CATALOGS: Record<Locale, AdminMessages> = { en, de, fr, es, ar, ja }
