import { type CapturedStream } from '../engine/demultiplex-output';
import { type CommandResult } from '../sandboxes/run-command';

/**
 * The text the model reads for a command that ran to its end (any exit code). A command that died
 * of a signal says so, and a SIGKILL says it was not the out-of-memory killer (that one is an error
 * result of its own), so a model does not go hunting for a memory problem that is not there.
 */
export function formatCommandResult(result: CommandResult): string {
  const killedBy =
    result.signal === undefined
      ? ''
      : ` — killed by ${result.signal}${result.signal === 'SIGKILL' ? ' (not out of memory)' : ''}`;
  return [
    `exit code: ${result.exitCode} (${Math.round(result.durationMs)} ms)${killedBy}`,
    formatStream('stdout', result.stdout),
    formatStream('stderr', result.stderr),
  ].join('\n');
}

/** One stream with a header; says when the sandbox dropped bytes past its cap. */
export function formatStream(label: string, stream: CapturedStream | undefined): string {
  if (!stream || stream.totalBytes === 0) return `--- ${label}: (empty) ---`;
  const kept = Buffer.byteLength(stream.text);
  const header = stream.truncated
    ? `--- ${label} (only the first ${kept} of ${stream.totalBytes} bytes were kept) ---`
    : `--- ${label} ---`;
  return `${header}\n${stream.text}`;
}
