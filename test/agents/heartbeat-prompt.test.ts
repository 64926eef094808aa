import { describe, expect, test } from 'vitest';
import { agentContext, output, taskObservation, tick } from '../support/agent-fixtures.js';
import { lastMessage, testAgent, useFakeServer } from './openai-helpers.js';

describe('the heartbeat prompt', () => {
  const serve = useFakeServer();

  test('a tick says only that the command is still running and asks wait or kill: no output, no time, no /proc', async () => {
    const fake = await serve([
      { toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }] },
      { toolCalls: [{ name: 'wait' }] },
    ]);
    const { factory } = testAgent(fake, { promptName: 'heartbeat' });
    const session = factory.create(agentContext());
    await session.next(taskObservation());
    const observation = tick(4, { output: output('compiling unit 3 of 12\n') }, factory.tickTemplate);
    expect(observation.text).toBe('[command #1 is still running. Wait for it, or kill it?]');
    await expect(session.next(observation)).resolves.toEqual({ type: 'wait' });
    expect(lastMessage(fake)).toMatchObject({
      role: 'tool',
      content: '[command #1 is still running. Wait for it, or kill it?]',
    });
  });
});
