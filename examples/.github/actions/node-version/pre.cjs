// CommonJS on purpose (.cjs), no @actions/core: state goes to GITHUB_STATE, outputs to GITHUB_OUTPUT.
const fs = require('node:fs');

console.log(`${process.env.INPUT_LABEL} pre runs on node ${process.version}`);
fs.appendFileSync(process.env.GITHUB_STATE, `pre_version=${process.version}\n`);
