#!/usr/bin/env node
/**
 * The `chatads` bin. V8 flags first, while the heap is still small; then the command itself,
 * loaded dynamically so that nothing else (zod, the lexicons, the models) is allocated before.
 */
import { applyServerV8Flags } from './v8-flags.js';

applyServerV8Flags();
void import('./main.js');
