export { packWorkingTree, type PackOptions, type PackResult } from './pack-working-tree.js';
export { describeWorkingTree, type WorkingTreeDescription } from './describe-working-tree.js';
export { headCommit, LocalGitError, localGit, workTreeRoot } from './local-git.js';
