// Reads `tap replay -R json` from stdin and prints one line: "N passed, N failed[, N skipped]".
// Counted from the test points themselves: tap's JSON totals count a skipped or todo point as a failure too.
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
  const counts = { passed: 0, failed: 0, skipped: 0 }
  /** Counts a suite's points; answers the failures found in it. */
  const walk = (suite) => {
    const before = counts.failed
    for (const point of suite.cases ?? []) {
      if (point.skip || point.todo) counts.skipped++
      else if (point.ok === false) counts.failed++
      else counts.passed++
    }
    for (const child of suite.suites ?? []) walk(child)
    // A suite that failed with no failing point of its own (a crash, a timeout, a bad plan) counts once.
    if (suite.ok === false && !suite.skip && !suite.todo && counts.failed === before) counts.failed++
  }
  walk(report)
  console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`)
})
