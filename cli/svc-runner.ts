#!/usr/bin/env node
import { Command } from 'commander';
import { packageInfo, readVersions } from '../core/kernel/index.js';

const versions = readVersions();
const program = new Command('svc-runner')
  .description(`svc-runner: the bundled runner (speaks the actions/runner ${versions.runnerVersion} protocol)`)
  .version(`${packageInfo().version} (runner protocol ${versions.runnerVersion})`, '-V, --version', 'print the version');
await program.parseAsync(process.argv);
