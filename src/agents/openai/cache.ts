import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';

/**
 * Responses on disk, keyed by the whole request body and the repeat index (so repeats stay
 * independent samples). No credentials or endpoint address go into the key or the file.
 */
export class ResponseCache {
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  key(body: ChatCompletionCreateParamsNonStreaming, repeat: number): string {
    return createHash('sha256').update(JSON.stringify({ repeat, body })).digest('hex');
  }

  async get(key: string): Promise<ChatCompletion | null> {
    try {
      const entry = JSON.parse(await readFile(this.file(key), 'utf8')) as { response?: ChatCompletion };
      return entry.response ?? null;
    } catch {
      return null;
    }
  }

  async put(
    key: string,
    body: ChatCompletionCreateParamsNonStreaming,
    repeat: number,
    response: ChatCompletion,
  ): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, `${JSON.stringify({ repeat, request: body, response })}\n`);
    await rename(temp, file);
  }

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}
