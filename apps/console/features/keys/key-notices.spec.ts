import { describe, expect, it } from 'vitest';
import { keyNoticeOf, keyNotices, keysNoticeHref } from './key-notices';

describe('the keys page’s notices', () => {
  it('shows a fixed text for each known code', () => {
    for (const [code, notice] of Object.entries(keyNotices)) {
      expect(keyNoticeOf(code)).toBe(notice);
      expect(keysNoticeHref(code as keyof typeof keyNotices)).toBe(`/keys?notice=${code}`);
    }
  });

  it.each([
    ['no code', undefined],
    ['free text', 'Your account is locked: call +1 555 0100'],
    ['an inherited property', 'constructor'],
    ['a prototype key', '__proto__'],
    ['a code in other case', 'KEY-REVOKED'],
  ])('shows nothing for %s', (_case, code) => {
    expect(keyNoticeOf(code)).toBeUndefined();
  });
});
