import { parseOpsCommand, UsageError } from './ops-command';

const service = ['--service', 'http://127.0.0.1:3001'];

describe('npm run ops', () => {
  it('maps dlq:replay selectors onto the replay API, as a destructive call', () => {
    expect(
      parseOpsCommand(['dlq:replay', ...service, '--message', '0:12', '--message', '1:7']),
    ).toEqual({
      service: 'http://127.0.0.1:3001',
      yes: false,
      method: 'POST',
      path: '/inbox/dead-letters/replay',
      body: {
        messages: [
          { partition: 0, offset: '12' },
          { partition: 1, offset: '7' },
        ],
      },
      destructive: true,
    });
    expect(
      parseOpsCommand(['dlq:replay', ...service, '--all', '--include-replayed', '--yes']),
    ).toMatchObject({
      body: { all: true, includeReplayed: true },
      yes: true,
    });
  });

  it('reads without confirmation', () => {
    expect(parseOpsCommand(['outbox:dead', ...service, '--limit', '5'])).toMatchObject({
      method: 'GET',
      path: '/outbox/dead?limit=5',
      destructive: false,
    });
    expect(parseOpsCommand(['inbox:stats', ...service]).path).toBe('/inbox/stats');
  });

  it.each([
    [[], /usage/],
    [['dlq:replay', ...service], /needs --message, --event-type, --error-code or --all/],
    [['outbox:requeue', ...service], /needs --id/],
    [['dlq:replay', ...service, '--message', '12'], /PARTITION:OFFSET/],
    [['dlq:list'], /--service URL is required/],
    [['dlq:list', ...service, '--bogus'], /Unknown option '--bogus'/],
    [['explode', ...service], /unknown command "explode"/],
    [['outbox:dead', ...service, '--limit', 'lots'], /--limit/],
  ])('rejects %j with a clear message', (argv, message) => {
    expect(() => parseOpsCommand(argv as string[])).toThrow(UsageError);
    expect(() => parseOpsCommand(argv as string[])).toThrow(message);
  });
});
