import type { MessageJson, SessionJson } from '@agentdesk/api-contract';
import { visibleText } from '../../visible-text';
import { formatDateTime, formatDuration, formatTokens, prettyArguments } from '../format';
import { checkMessage } from '../server/check-message';
import { buildTurns, transcriptTotals, type TranscriptMessage } from '../transcript-model';
import { inlineCode, markdownLine, markdownText } from './markdown-text';

const roleNames = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool result' } as const;

/** A fenced block that no backtick run inside the text can close early. */
function fenced(text: string, language = ''): string {
  const longestRun = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Someone's words quoted line by line, each shown as the text it is (no HTML, link or heading). */
function quoted(text: string): string {
  return markdownText(text)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** A label or id as one line of literal text, hidden direction and zero-width marks shown. */
function labelText(text: string): string {
  return markdownLine(visibleText(text));
}

function messageMarkdown(entry: TranscriptMessage): string[] {
  const { message } = entry;
  const lines = [
    `### ${roleNames[message.role]} · message ${message.seq} · ${formatDateTime(message.createdAt)}${
      message.status === 'complete' ? '' : ` · ${message.status}`
    }`,
    '',
  ];
  for (const event of entry.compressionEvents)
    lines.push(
      `*Scratchpad compressed by ${markdownLine(event.method)}: ${formatTokens(event.tokensBefore)} → ${formatTokens(
        event.tokensAfter,
      )} tokens.*`,
      '',
    );
  if (entry.text !== '') lines.push(message.role === 'tool' ? fenced(entry.text) : quoted(entry.text), '');
  for (const exchange of entry.toolExchanges) {
    lines.push(
      `**Tool call ${inlineCode(exchange.call.name)}** (${labelText(exchange.call.id)})`,
      '',
      fenced(prettyArguments(exchange.call.arguments), 'json'),
      '',
    );
    lines.push(
      exchange.resultText === undefined ? '*No result was recorded.*' : fenced(exchange.resultText),
      '',
    );
  }
  if (entry.error !== undefined)
    lines.push(`**Failed: ${markdownLine(entry.error.code)}** — ${markdownLine(entry.error.message)}`, '');
  if (message.usage !== null)
    lines.push(
      `*Usage: ${formatTokens(message.usage.input)} in · ${formatTokens(message.usage.output)} out*`,
      '',
    );
  return lines;
}

/** The Markdown download: the session's facts, its totals, then every turn like a conversation. */
export function transcriptMarkdown(transcript: {
  session: SessionJson;
  messages: MessageJson[];
  incomplete: boolean;
}): string {
  const { session } = transcript;
  const turns = buildTurns(transcript.messages.map(checkMessage));
  const totals = transcriptTotals(turns);
  const lines = [
    `# ${session.label === '' ? 'Untitled session' : labelText(session.label)}`,
    '',
    `- Session: ${labelText(session.id)}`,
    `- User: ${labelText(session.ownerUserId)}`,
    `- Portal: ${session.portalId === null ? '—' : labelText(session.portalId)}`,
    `- Model: ${session.model === null ? 'default' : labelText(session.model)}`,
    `- Created: ${formatDateTime(session.createdAt)}`,
    '',
    '## Totals',
    '',
    `- Turns: ${totals.turns} (failed: ${totals.failedTurns})`,
    `- Model calls: ${totals.modelCalls}; tool calls: ${totals.toolCalls}; compressions: ${totals.compressions}`,
    `- Tokens: ${formatTokens(totals.usage.input)} input, ${formatTokens(totals.usage.output)} output, ${formatTokens(
      totals.usage.thinking,
    )} thinking, ${formatTokens(totals.usage.cached)} cached`,
    `- Latency: ${formatDuration(totals.latencyTotalMs)} in all${
      totals.latencyAverageMs === undefined ? '' : `, ${formatDuration(totals.latencyAverageMs)} per turn`
    }`,
    '',
  ];
  if (transcript.incomplete) lines.push('*This export stops before the end of the transcript.*', '');
  for (const turn of turns) {
    lines.push(
      `## ${turn.number === 0 ? 'Before the first message' : `Turn ${turn.number}`}${turn.failed ? ' (failed)' : ''}`,
      '',
    );
    for (const entry of turn.messages) lines.push(...messageMarkdown(entry));
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
