/**
 * A job's `runs-on` labels against a runner's labels, as GitHub matches them: every label the
 * job asks for must be one of the runner's, compared without regard to case. A runner
 * registered with the default labels carries `self-hosted`, its OS (`linux`, `windows`,
 * `macos`) and its architecture (`x64`, `arm64`, ...), so `runs-on: [self-hosted, linux]`
 * reaches it; `runs-on: ubuntu-latest` reaches only a runner that was given that label.
 */
export function labelsMatch(jobLabels: readonly string[], runnerLabels: readonly string[]): boolean {
  if (jobLabels.length === 0) return false;
  const offered = new Set(runnerLabels.map((label) => label.toLowerCase()));
  return jobLabels.every((label) => offered.has(label.toLowerCase()));
}
