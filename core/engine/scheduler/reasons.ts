/** Reason a job fails with when its runner stopped renewing the lease (GitHub's wording). */
export const lostRunnerReason = (runner: string | null) =>
  `The self-hosted runner: ${runner ?? 'unknown'} lost communication with the server. Verify the machine is running and has a healthy network connection.`;

export const timeoutReason = (runner: string | null, minutes: number) =>
  `The job running on runner ${runner ?? 'unknown'} has exceeded the maximum execution time of ${minutes} minutes.`;
