/**
 * The feature-flag variables github.com sends with every job (captured October 2026, runner
 * 2.337), with the values this server sends. They are the service's switches of runner
 * behaviour, so the runner behaves as it does on github.com; where a flag points at a hosted-only
 * service or a check of hosted infrastructure it is off. `variables` in the builder's input
 * override any of them.
 */
export const FEATURE_FLAGS: Readonly<Record<string, string>> = {
  'Actions.EnableHttpRedirects': 'true',
  'DistributedTask.AddWarningToNode12Action': 'true',
  'DistributedTask.AddWarningToNode16Action': 'true',
  'DistributedTask.AllowRunnerContainerHooks': 'true',
  'DistributedTask.DeprecateStepOutputCommands': 'true',
  'DistributedTask.DetailUntarFailure': 'true',
  'DistributedTask.EnableCompositeActions': 'true',
  'DistributedTask.EnableJobServerQueueTelemetry': 'true',
  'DistributedTask.EnhancedAnnotations': 'true',
  'DistributedTask.ForceGithubJavascriptActionsToNode16': 'true',
  'DistributedTask.ForceGithubJavascriptActionsToNode20': 'true',
  'DistributedTask.LogTemplateErrorsAsDebugMessages': 'true',
  'DistributedTask.MarkJobAsFailedOnWorkerCrash': 'true',
  'DistributedTask.NewActionMetadata': 'true',
  'DistributedTask.UploadStepSummary': 'true',
  'DistributedTask.UseActionArchiveCache': 'true',
  'DistributedTask.UseWhich2': 'true',
  'RunService.FixEmbeddedIssues': 'true',
  'actions.runner.requirenode24': 'true',
  'actions.runner.usenode24bydefault': 'true',
  'actions.runner.warnonnode20': 'true',
  actions_add_check_run_id_to_job_context: 'true',
  // One resolution call per action: the batch form is a launch-service optimisation.
  actions_batch_action_resolution: 'false',
  // github.com's value; each job's own mode replaces it (cache-mode.ts, message-variables.ts).
  actions_cache_mode: 'write',
  actions_container_action_runner_temp: 'true',
  actions_display_helpful_actions_download_errors: 'true',
  actions_runner_allow_artifacts_file: 'true',
  // Compares the runner's parser with the server's and reports to hosted telemetry.
  actions_runner_compare_workflow_parser: 'false',
  actions_runner_deprecate_linux_arm32: 'true',
  actions_runner_emit_composite_markers: 'true',
  actions_runner_kill_linux_arm32: 'true',
  actions_runner_node20_removal_date: 'September 23rd, 2026',
  actions_runner_node24_default_date: 'June 16th, 2026',
  actions_self_repository: 'true',
  actions_service_container_command: 'true',
  actions_set_orchestration_id_env_for_actions: 'true',
  actions_skip_retry_complete_job_upon_known_errors: 'true',
  // Hosted-image snapshot checks: no hosted pools here.
  actions_snapshot_preflight_hosted_runner_check: 'false',
  actions_snapshot_preflight_image_gen_pool_check: 'false',
  // Action archives come from this server's signed URLs, not codeload.
  actions_use_bearer_token_for_codeload: 'false',
  actions_uses_cache_service_v2: 'true',
};
