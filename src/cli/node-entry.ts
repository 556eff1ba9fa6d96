/** The runner in a Node process: its arguments, environment, terminal and Ctrl-C. */
import { fileURLToPath } from 'node:url';
import { runCli } from './main';
import { printable } from '../core/basics/printable';

export async function main(argv: string[], importModule?: (url: string) => Promise<unknown>): Promise<number> {
  let stops = 0;
  const interrupted = new Promise<void>((resolve) => {
    process.on('SIGINT', () => {
      // The first Ctrl-C pauses at a checkpoint; a second one gives up at once.
      if (++stops > 1) process.exit(130);
      resolve();
    });
  });
  return runCli(argv, {
    env: process.env,
    // Lines may quote an endpoint or a file: no control character of theirs reaches the terminal.
    err: (text) => process.stderr.write(`${printable(text)}\n`),
    out: (text) => process.stdout.write(`${printable(text)}\n`),
    rawErr: process.stderr.isTTY ? (text) => process.stderr.write(text) : null,
    interrupted,
    promptsDir: fileURLToPath(new URL('../../prompts/', import.meta.url)),
    now: () => Date.now(),
    ...(importModule ? { importModule } : {}),
  });
}
