export { packWorkingTree, type PackOptions, type PackResult } from './pack-working-tree.js';
export { describeWorkingTree, type WorkingTreeDescription } from './describe-working-tree.js';
export { headCommit, LocalGitError, localGit, streamLocalGit, workTreeRoot } from './local-git.js';
export { readWorkingTreeState, type WorkingTreeState } from './working-tree-state.js';
export { commitWorkingTree, repositoryPaths, type RepositoryPaths, type WorkingTreeCommit } from './working-tree-commit.js';
export { readHistoryOffer, readShallowCommits, type HistoryOffer, type HistoryTag } from './history-offer.js';
