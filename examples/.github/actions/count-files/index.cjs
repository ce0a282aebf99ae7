// CommonJS on purpose (.cjs): it runs the same in a repository whose package.json says "type": "module".
// No @actions/core: inputs come from INPUT_* variables, outputs go to the GITHUB_OUTPUT file.
const fs = require('node:fs');
const path = require('node:path');

const directory = process.env.INPUT_DIRECTORY || '.';
const root = path.resolve(process.env.GITHUB_WORKSPACE || '.', directory);

function count(dir) {
  let files = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) files += count(path.join(dir, entry.name));
    else files += 1;
  }
  return files;
}

const files = count(root);
console.log(`${directory} holds ${files} files`);
fs.appendFileSync(process.env.GITHUB_OUTPUT, `files=${files}\n`);
