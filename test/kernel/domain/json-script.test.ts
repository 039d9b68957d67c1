import { test } from 'tap'
import { jsonForScript, jsonScriptElement } from '../../../kernel/domain/json-script.ts'

const nasty = {
  name: 'Mug </script><script>alert(1)</script> <!-- x --> & <b>',
  separators: 'line\u2028paragraph\u2029end',
  nested: [{ '</SCRIPT >': '<!--', '-->': '&amp;' }],
  lone: '\ud800'
}

test('jsonForScript escapes <, >, &, U+2028 and U+2029, and parses back to the same value', async (t) => {
  const json = jsonForScript(nasty)
  t.notMatch(json, /[<>&\u2028\u2029]/, 'none of the unsafe characters is left')
  t.match(json, '\\u003c/script\\u003e')
  t.match(json, '\\u0026')
  t.match(json, '\\u2028')
  t.match(json, '\\u2029')
  t.same(JSON.parse(json), nasty)
  t.equal(jsonForScript('plain'), '"plain"')
  t.equal(jsonForScript(null), 'null')
  t.throws(() => jsonForScript(undefined), TypeError)
})

test('jsonScriptElement is the full outer HTML of the script element', async (t) => {
  const html = jsonScriptElement(nasty, 'svc-cart-json')
  t.match(html, /^<script type="application\/json" class="svc-cart-json">/)
  t.ok(html.endsWith('</script>'))
  t.equal(html.toLowerCase().indexOf('</script'), html.length - '</script>'.length, 'the only end tag is its own')
  t.notOk(html.includes('<!--'))
  const content = html.slice(html.indexOf('>') + 1, -'</script>'.length)
  t.same(JSON.parse(content), nasty)
  t.equal(jsonScriptElement({}, 'a"b<c'), '<script type="application/json" class="a&quot;b&lt;c">{}</script>', 'the class is escaped')
})
