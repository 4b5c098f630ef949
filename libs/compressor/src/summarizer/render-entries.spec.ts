import type { ChatMessage } from '@agentdesk/providers';
import { describe, expect, it } from 'vitest';
import { callAndResult, logLines } from '../test-support/scratchpad-fixtures';
import { createTokenCounter } from '../tokens/count-tokens';
import { renderEntriesForSummary } from './render-entries';

const counter = createTokenCounter();

describe('renderEntriesForSummary', () => {
  it('renders notes, calls with arguments, and results (errors marked)', () => {
    const [call, result] = callAndResult('c1', 'sql', 'permission denied', '{"table":"payroll"}');
    const entries: ChatMessage[] = [
      { role: 'assistant', content: 'Checking payroll.' },
      call,
      { ...result, isError: true },
    ];
    expect(renderEntriesForSummary(entries, 1000, counter, 'en')).toBe(
      'Assistant: Checking payroll.\n\nCall sql (call c1) with arguments {"table":"payroll"}\n\nResult of sql (call c1) (error):\npermission denied',
    );
  });

  it('cuts large results head and tail with an exact marker, and the whole within the budget', () => {
    const entries = [
      ...callAndResult('a', 'logs', logLines(10_000)),
      ...callAndResult('b', 'logs', logLines(10_000, 'other')),
    ];
    const rendered = renderEntriesForSummary(entries, 3000, counter, 'en');
    expect(counter.countText(rendered)).toBeLessThanOrEqual(3000);
    expect(rendered).toContain('row 0:');
    expect(rendered).toContain('other 9999:');
    expect(rendered.match(/\[\.\.\. [\d,]+ lines omitted/g)).toHaveLength(2);
    expect(rendered).not.toContain('TRUNCATED TOOL RESULT');
  });
});
