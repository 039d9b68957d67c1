import { test } from 'tap'
import { truncateUtf8, utf8ByteLength } from '../../../kernel/domain/utf8.ts'

const bytes = (text: string) => Buffer.byteLength(text, 'utf8')
/** Whether the bytes decode back to the same text (no replacement character from a cut sequence). */
const roundTrips = (text: string) => new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(text)) === text

test('utf8ByteLength counts 1 to 4 bytes per character, as Buffer does', async (t) => {
  for (const text of ['', 'a', 'é', '€', '😀', 'aé€😀', '\ud800', 'x\udc00y']) {
    t.equal(utf8ByteLength(text), bytes(text), JSON.stringify(text))
  }
})

test('truncateUtf8 keeps short text and cuts long text between characters', async (t) => {
  t.equal(truncateUtf8('short', 500), 'short')
  t.equal(truncateUtf8('', 0), '')
  t.equal(truncateUtf8('abc', 0), '')
  t.equal(truncateUtf8('abcdef', 3), 'abc')
  t.equal(truncateUtf8('é€😀', 1), '', 'no room for a 2-byte character')
  t.equal(truncateUtf8('é€😀', 2), 'é')
  t.equal(truncateUtf8('é€😀', 4), 'é', 'the euro sign needs 3 more bytes')
  t.equal(truncateUtf8('é€😀', 5), 'é€')
  t.equal(truncateUtf8('é€😀', 8), 'é€', 'a surrogate pair is one 4-byte character, never split')
  t.equal(truncateUtf8('é€😀', 9), 'é€😀')
})

test('a 600-byte multi-byte notice is cut to at most 500 bytes of valid UTF-8, at every alignment', async (t) => {
  for (const unit of ['é', '€', '😀', 'a€😀é']) {
    for (let prefix = 0; prefix < 4; prefix++) {
      let text = 'x'.repeat(prefix)
      while (bytes(text) < 600) text += unit
      const cut = truncateUtf8(text, 500)
      t.ok(bytes(cut) <= 500, `${unit} + ${prefix}: at most 500 bytes`)
      t.ok(bytes(cut) > 500 - 4, `${unit} + ${prefix}: no more cut than one character`)
      t.ok(roundTrips(cut), `${unit} + ${prefix}: valid UTF-8`)
      t.ok(text.startsWith(cut), `${unit} + ${prefix}: a prefix of the text`)
    }
  }
})
