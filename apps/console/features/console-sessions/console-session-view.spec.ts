import { describe, expect, it } from 'vitest';
import {
  browserSummary,
  consoleSessionsHref,
  describeState,
  outcomeBanner,
  parseConsoleSessionView,
} from './console-session-view';

const userId = '01939b2e-0000-7000-8000-000000000001';

describe('the sign-ins page’s view, in the URL', () => {
  it('reads a person, ended sign-ins and a page, and writes them back', () => {
    const view = parseConsoleSessionView({ user: userId, ended: 'include', cursor: 'WyJ0IiwxXQ' });
    expect(view).toEqual({ userId, includeEnded: true, cursor: 'WyJ0IiwxXQ' });
    expect(consoleSessionsHref(view)).toBe(
      `/console-sessions?user=${userId}&ended=include&cursor=WyJ0IiwxXQ`,
    );
    expect(consoleSessionsHref(view, { userId: undefined, cursor: undefined })).toBe(
      '/console-sessions?ended=include',
    );
  });

  it('drops what is not an id or a cursor instead of sending it to the API', () => {
    expect(parseConsoleSessionView({ user: 'alice', cursor: 'a b', ended: 'yes' })).toEqual({
      includeEnded: false,
    });
    expect(consoleSessionsHref(parseConsoleSessionView({}))).toBe('/console-sessions');
  });
});

describe('banners and states', () => {
  it('shows a banner for a known outcome code only, never the URL’s own words', () => {
    expect(outcomeBanner('ended-all')).toMatchObject({ ok: true });
    expect(outcomeBanner('not-found')).toMatchObject({ ok: false });
    expect(outcomeBanner('Your account is locked, call +1 555')).toBeUndefined();
    expect(outcomeBanner('toString')).toBeUndefined();
  });

  it('says why a sign-in is over', () => {
    expect(describeState({ status: 'open', endReason: null })).toBe('open');
    expect(describeState({ status: 'expired', endReason: null })).toBe('timed out');
    expect(describeState({ status: 'ended', endReason: 'key-revoked' })).toBe('ended: key revoked');
  });
});

describe('a browser in a few words', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
      'Chrome 156 on Linux',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
      'Firefox 140 on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari 18 on macOS',
    ],
    ['curl/8.5.0', 'curl/8.5.0'],
    ['x'.repeat(60), `${'x'.repeat(39)}…`],
  ])('%s → %s', (userAgent, expected) => {
    expect(browserSummary(userAgent)).toBe(expected);
  });
});
