import { buildEventJsonSchema, type BuildEventJson } from '@agentdesk/api-contract';

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

/** One SSE `data:` payload, checked against the contract; undefined when it is not a build event. */
export function parseBuildEvent(data: string): BuildEventJson | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = buildEventJsonSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
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
