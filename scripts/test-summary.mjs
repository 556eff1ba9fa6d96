// Prints the plain "N passed, N failed" line CI reads, from vitest's JSON report.
// Usage: node scripts/test-summary.mjs test-results/vitest.json
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-results/vitest.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.log(`no test report at ${file}: ${e.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
let failed = report.numFailedTests ?? 0;
// A file that fails to load fails no test but must still count as a failure.
if (failed === 0 && report.success === false) failed = Math.max(1, report.numFailedTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || report.success === false ? 1 : 0);
