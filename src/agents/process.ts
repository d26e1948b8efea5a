// Placeholder signature; implemented by the agents-layer work. See DESIGN.md "Agents".
export interface ProcessSpec {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Written to stdin, then stdin is closed. Absent: stdin is /dev/null. */
  stdin?: string;
  /** Cap per stream; output beyond it is dropped (the tail is kept). Default 8 MiB. */
  maxOutputBytes?: number;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}
