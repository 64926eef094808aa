#!/usr/bin/env node
import { main } from '../dist/cli/main.js';

const code = await main(process.argv.slice(2));
// Interrupted: what finished is on disk; sandboxes still being cleaned up are SIGKILLed by the exit handler, not waited for.
if (code === 130) process.exit(code);
process.exitCode = code;
