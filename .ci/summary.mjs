// Reads `tap replay -R json` from stdin and prints one line: "N passed, N failed".
let input = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk) => { input += chunk })
process.stdin.on('end', () => {
  let report
  try {
    // tap may print its coverage table before the JSON document.
    const start = input.search(/^\{$/m)
    report = JSON.parse(start === -1 ? input : input.slice(start))
  } catch {
    console.log('0 passed, 1 failed (no tap results to read)')
    return
  }
  const failed = report.failures ?? 0
  const skipped = report.skipped ?? 0
  const passed = (report.tests ?? 0) - failed - skipped
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
})
