import type { BuildEventJson } from '@agentdesk/api-contract';

/** One line of the build log as the page shows it. */
export interface BuildLogLine {
  kind: 'start' | 'step' | 'progress' | 'output' | 'error' | 'end' | 'notice';
  text: string;
}

/** How a build ended, from its `build-end` event. */
export type BuildOutcome = 'current' | 'built' | 'failed';

function stringField(event: BuildEventJson, name: string): string | undefined {
  const value = event[name];
  return typeof value === 'string' ? value : undefined;
}

function numberField(event: BuildEventJson, name: string): number | undefined {
  const value = event[name];
  return typeof value === 'number' ? value : undefined;
}

/** The text of one build event (the API's `build-start`, `step`, `progress`, `line`, `error`, `build-end`). */
export function buildLogLineOf(event: BuildEventJson): BuildLogLine {
  switch (event.type) {
    case 'build-start':
      return {
        kind: 'start',
        text: `Building ${stringField(event, 'tag') ?? 'the image'}: ${stringField(event, 'reason') ?? ''}`.trim(),
      };
    case 'step':
      return {
        kind: 'step',
        text: `Step ${numberField(event, 'index') ?? '?'}/${numberField(event, 'total') ?? '?'}: ${stringField(event, 'instruction') ?? ''}`,
      };
    case 'progress': {
      const current = numberField(event, 'current');
      const total = numberField(event, 'total');
      const amount = current !== undefined && total !== undefined ? ` (${current}/${total})` : '';
      const id = stringField(event, 'id');
      return {
        kind: 'progress',
        text: `${id === undefined ? '' : `${id}: `}${stringField(event, 'status') ?? ''}${amount}`,
      };
    }
    case 'line':
      return { kind: 'output', text: stringField(event, 'text') ?? '' };
    case 'error':
      return { kind: 'error', text: `Error: ${stringField(event, 'message') ?? 'the build failed'}` };
    case 'build-end': {
      const imageId = stringField(event, 'imageId');
      return {
        kind: 'end',
        text: `Build ${buildOutcomeOf(event) ?? 'ended'}${imageId === undefined ? '' : `: ${imageId}`}`,
      };
    }
    default:
      return { kind: 'notice', text: stringField(event, 'message') ?? event.type };
  }
}

/** The outcome a `build-end` event carries; undefined for every other event. */
export function buildOutcomeOf(event: BuildEventJson): BuildOutcome | undefined {
  if (event.type !== 'build-end') return undefined;
  const status = stringField(event, 'status');
  return status === 'current' || status === 'built' || status === 'failed' ? status : undefined;
}

/**
 * One SSE `data:` payload of the console's build log stream. The console's route handler checked
 * each event against the contract before sending it (`server/checked-build-events.ts`), so only the
 * JSON is read here; anything unreadable is skipped.
 */
export function readCheckedBuildEvent(data: string): BuildEventJson | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' &&
      value !== null &&
      typeof (value as { type?: unknown }).type === 'string'
      ? (value as BuildEventJson)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The event types the API streams: the browser's EventSource listens to each by name. */
export const buildEventTypes = [
  'build-start',
  'step',
  'progress',
  'line',
  'error',
  'build-end',
  'build-running-elsewhere',
] as const;
