import { escapeHtml } from './html.ts'

/** Characters that could end a `<script>` element, open a comment or break a JavaScript string (design §3.8). */
const UNSAFE = /[<>&\u2028\u2029]/g
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029'
}

/**
 * JSON text that is safe inside an HTML `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 are written as
 * `\u003c`-style escapes. They can only occur inside JSON strings, where the escape means the same character, so
 * `JSON.parse` gives back exactly the value; and no `</script`, `<!--` or `-->` can appear in the text.
 */
export function jsonForScript (value: unknown): string {
  const json = JSON.stringify(value)
  if (json === undefined) throw new TypeError('jsonForScript: the value has no JSON form')
  return jsonTextForScript(json)
}

/** `jsonForScript` of JSON text already made (a stored snapshot): the same escapes, applied to the text. */
export function jsonTextForScript (json: string): string {
  return json.replace(UNSAFE, (character) => ESCAPES[character]!)
}

/** The full outer HTML of `<script type="application/json" class="…">` holding `value` as JSON. */
export function jsonScriptElement (value: unknown, className: string): string {
  return jsonTextScriptElement(JSON.stringify(value) ?? jsonForScript(value), className)
}

/** `jsonScriptElement` of JSON text already made. */
export function jsonTextScriptElement (json: string, className: string): string {
  return `<script type="application/json" class="${escapeHtml(className)}">${jsonTextForScript(json)}</script>`
}
