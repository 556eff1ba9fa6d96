// The headless runner in this process, run from a folder (its config's paths are relative to it):
// exit code and everything it printed. A spawn adds nothing where the test checks what it does.
import { runCli } from '../../src/cli/main';

export interface CliRan {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCliIn(dir: string, args: string[], env: Record<string, string>): Promise<CliRan> {
  let stdout = '';
  let stderr = '';
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const code = await runCli(args, {
      env,
      err: (t) => (stderr += `${t}\n`),
      out: (t) => (stdout += `${t}\n`),
      rawErr: null,
      interrupted: new Promise(() => {}),
      promptsDir: new URL('../../prompts/', import.meta.url).pathname,
      now: () => Date.now(),
    });
    return { code, stdout, stderr };
  } finally {
    process.chdir(cwd);
  }
}
