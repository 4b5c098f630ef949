import type { ContainerJson } from '@agentdesk/api-contract';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ContainersTable, staleExplanation } from './containers-table';

function container(overrides: Partial<ContainerJson>): ContainerJson {
  return {
    id: 'c0ffee',
    name: 'agentdesk-session-s1',
    role: 'session',
    sessionId: 's1',
    ownerUserId: 'u1',
    state: 'running',
    imageId: 'sha256:0123456789abcdef',
    createdAt: '2026-01-01T00:00:00.000Z',
    ageSeconds: 30,
    lastUsedAt: null,
    stale: false,
    ...overrides,
  };
}

function rowsOf(containers: ContainerJson[]): string[] {
  const html = renderToStaticMarkup(createElement(ContainersTable, { containers, canManage: false }));
  return html.split('<tr>').slice(2); // the header row first
}

describe('the containers table', () => {
  it('marks a container on an old image stale, and says what happens to it', () => {
    const [session, pool, current] = rowsOf([
      container({ stale: true }),
      container({ id: 'p', name: 'agentdesk-pool-1', role: 'pool', sessionId: null, stale: true }),
      container({ id: 'n', name: 'agentdesk-session-s2', sessionId: 's2' }),
    ]);
    // One element in the cell: a phone lays each cell out as a grid of its label and its content.
    expect(session).toContain(
      '<td class="wrap-anywhere" data-label="State"><div>running <span class="badge badge-warn">stale</span>',
    );
    expect(session).toContain(
      'replaced at its next idle point (between tool calls), /workspace carried over',
    );
    expect(pool).toContain('>stale</span>');
    expect(pool).toContain(staleExplanation('pool'));
    expect(current).not.toContain('stale');
  });
});
