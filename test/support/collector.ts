import { Writable } from 'node:stream';

/** A writable stream that keeps what was written, for a command's stdout or stderr in a test. */
export function collector(): Writable & { text: string } {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stream.text += chunk.toString();
      done();
    },
  }) as Writable & { text: string };
  stream.text = '';
  return stream;
}
