import type { MessageJson, SessionJson } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import { transcriptMarkdown } from './transcript-markdown';

const session: SessionJson = {
  id: 's-1',
  ownerUserId: 'u-1',
  portalId: null,
  label: 'Support\ncase',
  status: 'open',
  model: 'gpt-test',
  systemPrompt: null,
  metadata: {},
  tokenTotals: { input: 0, output: 0, thinking: 0, cached: 0 },
  costMicros: 0,
  pricedCostMicros: 0,
  unpricedCalls: 0,
  messageCount: 3,
  createdAt: '2026-01-31T12:00:00.000Z',
  updatedAt: '2026-01-31T12:00:00.000Z',
};
let seq = 0;
function message(fields: Partial<MessageJson> & Pick<MessageJson, 'role'>): MessageJson {
  seq += 1;
  return {
    id: `m-${seq}`,
    sessionId: 's-1',
    seq,
    contentParts: [],
    toolCalls: null,
    toolCallId: null,
    usage: null,
    status: 'complete',
    error: null,
    model: null,
    compressionEvents: null,
    startedAt: '2026-01-31T12:00:00.000Z',
    finishedAt: '2026-01-31T12:00:02.000Z',
    createdAt: '2026-01-31T12:00:00.000Z',
    ...fields,
  };
}

describe('transcriptMarkdown', () => {
  const messages = [
    message({ role: 'user', contentParts: [{ type: 'text', text: 'Show the log' }] }),
    message({
      role: 'assistant',
      toolCalls: [{ id: 'call_1', name: 'read_log', arguments: '{"lines":3}' }],
      usage: { input: 10, output: 2, thinking: 0, cached: 0 },
    }),
    message({
      role: 'tool',
      toolCallId: 'call_1',
      contentParts: [{ type: 'text', text: 'a ``` fence\n````' }],
    }),
    message({ role: 'assistant', contentParts: [{ type: 'text', text: 'Done.\n# not a heading' }] }),
  ];
  const markdown = transcriptMarkdown({ session, messages, incomplete: false });

  it('starts with the session’s facts and totals, the label on one line', () => {
    expect(markdown.startsWith('# Support case\n')).toBe(true);
    expect(markdown).toContain('- Turns: 1 (failed: 0)');
    expect(markdown).toContain('- Tokens: 10 input, 2 output, 0 thinking, 0 cached');
  });

  it('shows the tool call with its arguments and its result in a fence no backtick run can close', () => {
    expect(markdown).toContain('**Tool call `read_log`** (call\\_1)');
    expect(markdown).toContain('```json\n{\n  "lines": 3\n}\n```');
    expect(markdown).toContain('`````\na ``` fence\n````\n`````');
  });

  it('quotes the model’s words, so its text cannot become the document’s headings', () => {
    expect(markdown).toContain('> Done.\n> \\# not a heading');
  });
});

describe('transcriptMarkdown of hostile text', () => {
  const hostile = transcriptMarkdown({
    session: {
      ...session,
      label: 'Invoice <img src=x onerror=alert(1)> [pay](javascript:alert(1)) \u202Efdp.exe',
    },
    messages: [
      message({
        role: 'user',
        contentParts: [
          { type: 'text', text: '<script>alert(1)</script>\n[click me](javascript:alert(document.cookie))' },
        ],
      }),
      message({
        role: 'assistant',
        status: 'failed',
        error: { code: 'provider_error', message: '<b>down</b> see [status](data:text/html,x)' },
      }),
    ],
    incomplete: false,
  });

  it('shows the label’s HTML and link as text, and its direction override as a marker', () => {
    expect(hostile.split('\n')[0]).toBe(
      '# Invoice &lt;img src=x onerror=alert\\(1\\)&gt; \\[pay\\]\\(javascript:alert\\(1\\)\\) ⟨U+202E⟩fdp.exe',
    );
  });

  it('leaves no raw HTML and no javascript: or data: link anywhere', () => {
    expect(hostile).not.toMatch(/<(script|img|b)\b/i);
    expect(hostile).not.toMatch(/\]\((javascript|data):/i);
    expect(hostile).toContain('> &lt;script&gt;alert\\(1\\)&lt;/script&gt;');
    expect(hostile).toContain('**Failed: provider\\_error** — &lt;b&gt;down&lt;/b&gt;');
  });
});
