#!/usr/bin/env node
/**
 * The `chatads` bin. V8 flags first, while the heap is still small; then Node's module compile
 * cache (later starts skip compiling what an earlier one compiled: ~30 ms of ~290); then the
 * command itself, loaded dynamically so that nothing else (zod, the lexicons, the models) is
 * allocated before.
 */
import module from 'node:module';
import { applyServerV8Flags } from './v8-flags.js';

applyServerV8Flags();
// In the OS temp folder unless NODE_COMPILE_CACHE says where; a cache that cannot be written is skipped.
module.enableCompileCache?.();
void import('./main.js');
