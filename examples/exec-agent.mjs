#!/usr/bin/env node
// A tiny external agent for `hangbench eval --agent exec --cmd "node examples/exec-agent.mjs"`.
// It speaks the JSON-lines protocol of docs/agent-protocol.md: one observation per line on stdin,
// one action per line on stdout. Strategy: run the repro, kill it after 2 ticks in a row with no
// new output, then finish. It never edits anything, so it can reproduce and interrupt, not fix.
import process from 'node:process';
import { createInterface } from 'node:readline';

const QUIET_TICKS_BEFORE_KILL = 2;
let quietTicks = 0;

function act(action) {
  process.stdout.write(`${JSON.stringify(action)}\n`);
}

function decide(observation) {
  switch (observation.type) {
    case 'task':
      return { type: 'run', command: observation.repro };
    case 'tick':
      quietTicks = observation.tick.output.bytes === 0 ? quietTicks + 1 : 0;
      return quietTicks >= QUIET_TICKS_BEFORE_KILL ? { type: 'kill' } : { type: 'wait' };
    case 'gate':
      // A gate failed our finish; this agent cannot fix anything, so it finishes again (accepted once retries run out).
      return { type: 'finish', summary: `gate ${observation.gate + 1} failed: ${observation.reason}` };
    case 'exit':
      return {
        type: 'finish',
        summary: observation.kill
          ? `killed the command after ${QUIET_TICKS_BEFORE_KILL} quiet ticks`
          : 'the command exited by itself',
      };
    case 'error':
      // hangbench could not read our last line; say so on stderr (kept for error messages) and stop.
      process.stderr.write(`hangbench rejected a line: ${observation.message}\n`);
      return { type: 'finish', summary: 'gave up after a protocol error' };
    default:
      return { type: 'finish', summary: `unexpected ${observation.type} observation` };
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const message = JSON.parse(line);
  // A hint from "the user" is not answered: the observation on the next line is. Log it for whoever reads stderr.
  if (message.type === 'hint') process.stderr.write(`hint: ${message.text}\n`);
  else act(decide(message));
}
