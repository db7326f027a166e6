// npm run bench:readme — regenerates the README's benchmark table from bench/results.json.
import { writeReadme } from './lib/readme.js';

writeReadme();
console.log('README.md: benchmark table regenerated from bench/results.json');
