/** Bytes a code point takes in UTF-8 (a lone surrogate is written as U+FFFD: three bytes). */
function utf8Width (codePoint: number): number {
  if (codePoint < 0x80) return 1
  if (codePoint < 0x800) return 2
  if (codePoint < 0x10000) return 3
  return 4
}

/** The length of `text` in UTF-8 bytes. */
export function utf8ByteLength (text: string): number {
  let bytes = 0
  for (const character of text) bytes += utf8Width(character.codePointAt(0)!)
  return bytes
}

/**
 * The longest prefix of `text` that takes at most `maxBytes` bytes in UTF-8, cut between characters (code points),
 * never inside one: the result is always valid UTF-8 once encoded. A surrogate pair is one character.
 */
export function truncateUtf8 (text: string, maxBytes: number): string {
  const limit = Math.max(0, Math.floor(maxBytes))
  // Fast path: every UTF-16 unit takes at most three bytes.
  if (text.length * 3 <= limit) return text
  let bytes = 0
  let end = 0
  for (const character of text) {
    bytes += utf8Width(character.codePointAt(0)!)
    if (bytes > limit) break
    end += character.length
  }
  return text.slice(0, end)
}
