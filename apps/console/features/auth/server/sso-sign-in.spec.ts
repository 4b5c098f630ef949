import { ssoProblemCodes } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import { signInErrors } from './sign-in-errors';
import { handleSsoReturn } from './sso-sign-in';

async function landing(query: string, cookie?: string): Promise<string | null> {
  const request = new Request(`http://127.0.0.1:3001/sign-in/sso?${query}`, {
    headers: cookie === undefined ? {} : { cookie },
  });
  return (await handleSsoReturn(request)).headers.get('location');
}

describe('the way back from single sign-on', () => {
  it('has a fixed sentence for every problem the API can send', () => {
    for (const problem of ssoProblemCodes) expect(Object.keys(signInErrors)).toContain(`sso-${problem}`);
  });

  it('turns a problem into the sign-in page’s code, and anything else into the generic one', async () => {
    expect(await landing('problem=no-role')).toBe('/sign-in?error=sso-no-role');
    expect(await landing('problem=idp-unavailable')).toBe('/sign-in?error=sso-idp-unavailable');
    expect(await landing(`problem=${encodeURIComponent('<b>Your account is locked, call +1…</b>')}`)).toBe(
      '/sign-in?error=sso-sign-in-failed',
    );
  });

  it('refuses a code in a browser that did not start a sign-in (login CSRF), before any API call', async () => {
    expect(await landing('code=abc')).toBe('/sign-in?error=sso-state-mismatch');
  });
});
