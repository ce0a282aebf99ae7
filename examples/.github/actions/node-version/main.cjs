// CommonJS on purpose (.cjs), no @actions/core.
const fs = require('node:fs');

console.log(`${process.env.INPUT_LABEL} main runs on node ${process.version}`);
fs.appendFileSync(process.env.GITHUB_OUTPUT, `version=${process.version}\n`);
