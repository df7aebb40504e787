import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/cloudgate.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built binary as a subprocess without a TTY (as CI does): `node bin/cloudgate.js`, or with
 * `asProgram` the file itself, as an installed `cloudgate` runs.
 */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number; asProgram?: boolean } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [file, argv] = options.asProgram ? [BIN, args] : [process.execPath, [BIN, ...args]];
    const child = spawn(file, argv, {
      cwd: options.cwd,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A program that exits without reading its input closes the pipe first: that is not a failure.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(options.input ?? '');
  });
}
