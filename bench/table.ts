// npm run bench:table — regenerates the benchmark table of docs/benchmarks.md from bench/results.json.
import { writeResultsPage } from './lib/results-page.js';

writeResultsPage();
console.log('docs/benchmarks.md: benchmark table regenerated from bench/results.json');
