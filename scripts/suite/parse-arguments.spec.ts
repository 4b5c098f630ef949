import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error';
import { DEFAULT_API_URL, parseArguments } from './parse-arguments';

const key = { AGENTDESK_API_KEY: 'adk_secret' };

function usageProblem(argv: string[], environment: Record<string, string | undefined> = key): string {
  try {
    parseArguments(argv, environment);
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).kind).toBe('usage');
    return (error as CliError).message;
  }
  throw new Error('expected a usage error');
}

describe('suite command arguments', () => {
  it('takes a suite name with spaces and every option', () => {
    expect(
      parseArguments(
        [
          'run',
          'Demo: structured extraction',
          '--against',
          'latest',
          '--junit',
          'out.xml',
          '--min-pass-rate',
          '0.9',
          '--concurrency',
          '4',
          '--url',
          'https://qa.example.com/',
        ],
        key,
      ),
    ).toEqual({
      command: 'run',
      suite: 'Demo: structured extraction',
      against: 'latest',
      junitPath: 'out.xml',
      minPassRate: 0.9,
      concurrency: 4,
      url: 'https://qa.example.com',
      apiKey: 'adk_secret',
    });
  });

  it('defaults the URL to AGENTDESK_URL, else the local API; --url wins', () => {
    expect(parseArguments(['run', 's'], key)).toMatchObject({
      url: DEFAULT_API_URL,
      against: undefined,
      minPassRate: undefined,
    });
    expect(parseArguments(['run', 's'], { ...key, AGENTDESK_URL: 'http://api:3000' })).toMatchObject({
      url: 'http://api:3000',
    });
    expect(
      parseArguments(['run', 's', '--url=http://other:1'], { ...key, AGENTDESK_URL: 'http://api:3000' }),
    ).toMatchObject({
      url: 'http://other:1',
    });
  });

  it('answers --help without a key', () => {
    expect(parseArguments(['--help'], {})).toEqual({ command: 'help' });
    expect(parseArguments(['help'], {})).toEqual({ command: 'help' });
  });

  it.each([
    [[], /name a command/],
    [['list'], /unknown command "list"/],
    [['run'], /needs a suite/],
    [['run', 'Demo:', 'structured'], /unexpected argument "structured"/],
    [['run', 's', '--min-pass-rate', '1.5'], /--min-pass-rate must be a number from 0 to 1, got "1.5"/],
    [['run', 's', '--min-pass-rate', ''], /--min-pass-rate/],
    [['run', 's', '--min-pass-rate', 'high'], /--min-pass-rate/],
    [['run', 's', '--concurrency', '0'], /--concurrency must be an integer from 1 to 64/],
    [['run', 's', '--concurrency', '2.5'], /--concurrency/],
    [['run', 's', '--url', 'ftp://x'], /--url must be an http\(s\) URL/],
    [['run', 's', '--url', 'not a url'], /--url/],
    [['run', 's', '--against', ' '], /--against must not be empty/],
    [['run', 's', '--junit'], /--junit/],
    [['run', 's', '--verbose'], /verbose/],
  ])('refuses %j', (argv, problem) => {
    expect(usageProblem(argv)).toMatch(problem);
  });

  it('needs AGENTDESK_API_KEY for a run', () => {
    expect(usageProblem(['run', 's'], {})).toMatch(/AGENTDESK_API_KEY/);
    expect(usageProblem(['run', 's'], { AGENTDESK_API_KEY: '  ' })).toMatch(/AGENTDESK_API_KEY/);
  });
});
