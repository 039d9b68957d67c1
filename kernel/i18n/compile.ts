import { parse, type Token } from '@messageformat/parser'
import type { CompiledCatalog, CompiledMessage, CompiledPart, Locale } from './locales.ts'

/**
 * ICU messages parsed with `@messageformat/parser` (the messageformat project's parser) and compiled to the small
 * JSON form the drawer formats (`CompiledMessage`, see locales.ts). Used at build time for the bundled English
 * catalog, by the drawer-assets plugin for the other catalogs and the shop's overrides, and by the settings
 * validation. The browser never parses ICU: the drawer's script carries only the formatter.
 */

const NUMBER_STYLES = new Set(['', 'integer', 'percent'])

function pluralCategories (locale: string, type: 'cardinal' | 'ordinal'): Array<'zero' | 'one' | 'two' | 'few' | 'many' | 'other'> {
  return new Intl.PluralRules(locale, { type }).resolvedOptions().pluralCategories as Array<'zero' | 'one' | 'two' | 'few' | 'many' | 'other'>
}

function parseMessage (source: string, locale: string): Token[] {
  return parse(source, { cardinal: pluralCategories(locale, 'cardinal'), ordinal: pluralCategories(locale, 'ordinal'), strict: false })
}

function compileTokens (tokens: readonly Token[]): CompiledMessage {
  const parts: CompiledPart[] = []
  for (const token of tokens) {
    let part: CompiledPart
    switch (token.type) {
      case 'content':
        // The parser takes a brace left open at the very end as text: ICU wants it quoted ('{').
        if (/[{}]/.test(token.ctx.text.replace(/'[^']*'/g, ''))) throw new Error(`unmatched brace in "${token.ctx.text}" (write '{' for a brace)`)
        part = token.value
        break
      case 'argument': part = [0, token.arg]; break
      case 'octothorpe': part = [3]; break
      case 'function': {
        const style = (token.param ?? []).map((param) => param.type === 'content' ? param.value : '').join('').trim()
        if (token.key !== 'number' || !NUMBER_STYLES.has(style)) throw new Error(`{${token.arg}, ${token.key}${style ? `, ${style}` : ''}} is not supported (only number, number integer, number percent)`)
        part = [5, token.arg, style]
        break
      }
      default: {
        const cases: Record<string, CompiledMessage> = {}
        for (const entry of token.cases) cases[entry.key] = compileTokens(entry.tokens)
        if (!('other' in cases)) throw new Error(`{${token.arg}, ${token.type}} has no "other" case`)
        part = token.type === 'select' ? [2, token.arg, cases] : [token.type === 'plural' ? 1 : 4, token.arg, token.pluralOffset ?? 0, cases]
      }
    }
    const last = parts[parts.length - 1]
    if (typeof part === 'string' && typeof last === 'string') parts[parts.length - 1] = last + part
    else parts.push(part)
  }
  if (parts.length === 0) return ''
  return parts.length === 1 && typeof parts[0] === 'string' ? parts[0] : parts
}

/** One message compiled; throws on ICU syntax errors, a plural key the locale does not have, an unsupported format. */
export function compileMessage (source: string, locale: string): CompiledMessage {
  return compileTokens(parseMessage(source, locale))
}

export function compileCatalog (messages: Readonly<Record<string, string>>, locale: string): CompiledCatalog {
  const catalog: CompiledCatalog = {}
  for (const [id, source] of Object.entries(messages)) {
    try {
      catalog[id] = compileMessage(source, locale)
    } catch (error) {
      throw new Error(`${locale} catalog, message ${id}: ${(error as Error).message}`, { cause: error })
    }
  }
  return catalog
}

/** The placeholders of a message (argument names, in order of first use, each once), e.g. `count`, `total`. */
export function placeholders (source: string, locale: string): string[] {
  const names = new Set<string>()
  const walk = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument' || token.type === 'function') names.add(token.arg)
      if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') {
        names.add(token.arg)
        for (const entry of token.cases) walk(entry.tokens)
      }
    }
  }
  walk(parseMessage(source, locale))
  return [...names]
}

/**
 * Why a shop's text cannot replace a catalog message, or null when it can: it must be ICU that compiles for the
 * locale, with exactly the placeholders of the original.
 */
export function overrideProblem (source: string, original: string, locale: Locale): string | null {
  let found: string[]
  try {
    compileMessage(source, locale)
    found = placeholders(source, locale)
  } catch (error) {
    return `is not a valid ICU message: ${(error as Error).message.split('\n')[0]!.replace(/:$/, '')}`
  }
  const wanted = placeholders(original, locale)
  const missing = wanted.filter((name) => !found.includes(name))
  const unknown = found.filter((name) => !wanted.includes(name))
  if (missing.length === 0 && unknown.length === 0) return null
  const list = (names: string[]) => names.map((name) => `{${name}}`).join(', ')
  return [
    missing.length > 0 ? `must use ${list(missing)}` : '',
    unknown.length > 0 ? `has ${list(unknown)}, which this text does not have (it has ${wanted.length > 0 ? list(wanted) : 'none'})` : ''
  ].filter(Boolean).join('; ')
}
