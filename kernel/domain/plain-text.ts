const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' '
}

/** Tags that break a line in a browser: they become a space so words on either side stay apart. */
const BLOCK_TAG = /<\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*(?:>|$)/gi
const ANY_TAG = /<\/?[a-z!?][^>]*(?:>|$)/gi

function decodeEntities (text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const codePoint = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole
  })
}

/**
 * Plain text from a fragment of HTML, like WordPress's `wp_strip_all_tags`: drops comments, `script`/`style`
 * elements with their content and every tag, decodes character references, then collapses whitespace.
 * The result is text, not HTML: escape it before writing it into markup.
 */
export function toPlainText (html: string): string {
  const withoutTags = html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
    .replace(BLOCK_TAG, ' ')
    .replace(ANY_TAG, '')
  return decodeEntities(withoutTags).replace(/\s+/g, ' ').trim()
}
