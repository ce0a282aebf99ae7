// CommonJS on purpose (.cjs), no @actions/tool-cache: the same layout by hand. A version counts as
// cached only once `<arch>.complete` exists beside its folder, so a half-written one is never used.
const fs = require('node:fs');
const path = require('node:path');

const version = process.env.INPUT_VERSION || '1.2.3';
const cache = process.env.RUNNER_TOOL_CACHE;
if (!cache) throw new Error('RUNNER_TOOL_CACHE is not set');
const arch = process.arch;
const dir = path.join(cache, 'demo-tool', version, arch);
const hit = fs.existsSync(`${dir}.complete`);
if (hit) {
  console.log(`demo-tool ${version} found in the tool cache (${dir})`);
} else {
  console.log(`demo-tool ${version} is not in the tool cache: installing it into ${dir}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'demo-tool'), `#!/bin/sh\necho "demo-tool ${version}: $*"\n`, { mode: 0o755 });
  fs.writeFileSync(`${dir}.complete`, '');
}
fs.appendFileSync(process.env.GITHUB_PATH, `${dir}\n`);
fs.appendFileSync(process.env.GITHUB_OUTPUT, `cache-hit=${hit}\n`);
