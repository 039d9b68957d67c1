import { test } from 'tap'
import { toPlainText } from '../../../kernel/domain/plain-text.ts'

test('toPlainText', async (t) => {
  t.equal(toPlainText('Back in <b>two</b> weeks'), 'Back in two weeks', 'inline tags removed')
  t.equal(toPlainText('back<b>order</b>'), 'backorder', 'inline tags do not split words')
  t.equal(toPlainText('<p>One</p><p>Two</p>'), 'One Two', 'block tags separate words')
  t.equal(toPlainText('a<br/>b'), 'a b')
  t.equal(toPlainText('x<script type="text/javascript">alert("no")</script>y'), 'x y', 'script content dropped')
  t.equal(toPlainText('x<style>p{}</style>y<!-- note -->z'), 'x y z', 'style and comments dropped')
  t.equal(toPlainText('Fish &amp; chips &lt;3 &#169; &#x263A; &nbsp;&quot;hi&quot; &bogus;'), 'Fish & chips <3 © ☺ "hi" &bogus;', 'entities decoded, unknown kept')
  t.equal(toPlainText('&#0; &#x110000;'), '&#0; &#x110000;', 'invalid code points kept as written')
  t.equal(toPlainText('  many\n\t spaces  '), 'many spaces')
  t.equal(toPlainText('unclosed <a href="x'), 'unclosed', 'unclosed tag at the end removed')
  t.equal(toPlainText('2 < 3 and 5 > 4'), '2 < 3 and 5 > 4', 'a lone < that opens no tag stays')
})
