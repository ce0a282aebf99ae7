// CommonJS on purpose (.cjs), no @actions/core: the pre stage's state comes back as STATE_<name>.
// As on GitHub, a local action (uses: ./...) runs no pre stage: only a downloaded one does.
const pre = process.env.STATE_pre_version;
console.log(`${process.env.INPUT_LABEL} post runs on node ${process.version}${pre === undefined ? '' : ` (its pre ran on ${pre})`}`);
