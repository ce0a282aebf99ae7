/**
 * Side-effect module for `node --import <dist>/core/workflow/parser/json-hook-preload.js`:
 * registers the JSON import hook before the application's module graph is loaded, so any module
 * may import `@actions/workflow-parser` statically. `loadWorkflow()` does not need it.
 */
import { registerJsonImportHook } from './register-json-hook.js';

registerJsonImportHook();
