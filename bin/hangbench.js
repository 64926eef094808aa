#!/usr/bin/env node
// Signals are handled from the first instruction: loading the CLI takes a few hundred ms, and an interrupt in that
// window means what it means later (exit 130), not the default death by signal. The CLI replaces these once loaded.
const interruptedEarly = () => process.exit(130);
process.on('SIGINT', interruptedEarly);
process.on('SIGTERM', interruptedEarly);

const { main } = await import('../dist/cli/main.js');
const code = await main(process.argv.slice(2));
// Interrupted: what finished is on disk; sandboxes still being cleaned up are SIGKILLed by the exit handler, not waited for.
if (code === 130) process.exit(code);
process.exitCode = code;
