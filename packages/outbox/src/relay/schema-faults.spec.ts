import { RelayFaults } from './relay-faults';
import { SchemaFaults } from './schema-faults';

/** A TypeORM QueryFailedError's shape: the driver's error under `driverError`. */
const queryFailed = (driverError: object) =>
  Object.assign(new Error('query failed'), { driverError });
const noTable = queryFailed({ code: '42P01', message: 'relation "t_outbox" does not exist' });
const noUpdate = queryFailed({
  errno: 1142,
  code: 'ER_TABLEACCESS_DENIED_ERROR',
  message: "UPDATE command denied to user 'svc'@'%' for table `shop`.`t_outbox`",
});

function watch() {
  const lines: string[] = [];
  const faults = new RelayFaults();
  const logger = {
    log: (m: string) => void lines.push(`log ${m}`),
    warn: (m: string) => void lines.push(`warn ${m}`),
    error: (m: string) => void lines.push(`error ${m}`),
  };
  return { lines, faults, schema: new SchemaFaults(faults, logger) };
}

describe('SchemaFaults', () => {
  it('records a missing t_outbox with its remedy, says so once over many rounds, and once when it clears', () => {
    const { lines, faults, schema } = watch();
    for (let round = 0; round < 5; round++) expect(schema.failed(noTable)).toBe(true);
    expect(faults.list()).toEqual([
      expect.objectContaining({
        kind: 'schema',
        subject: 't_outbox',
        code: '42P01',
        rounds: 5,
        remedy: "run OutboxMigrations (@outbox-inbox/outbox) on this service's database",
      }),
    ]);
    schema.worked();
    schema.worked();
    expect(faults.list()).toEqual([]);
    expect(lines).toEqual([
      expect.stringMatching(/^warn outbox relay cannot claim: table t_outbox is missing \(42P01\)/),
      'log outbox relay claims again: t_outbox in place after 5 round(s)',
    ]);
  });

  it('names the privilege to grant, and leaves any other error to the caller', () => {
    const { faults, schema } = watch();
    expect(schema.failed(noUpdate)).toBe(true);
    expect(faults.list()[0].remedy).toBe("grant this service's database user UPDATE on t_outbox");
    expect(schema.failed(queryFailed({ errno: 1213 }))).toBe(false);
  });

  it('waits at most 15 s between claims, or less when the relay backs off less', () => {
    expect(SchemaFaults.backoff({ baseDelayMs: 500, maxDelayMs: 300_000 })).toEqual({
      baseDelayMs: 500,
      maxDelayMs: 15_000,
    });
    expect(SchemaFaults.backoff({ baseDelayMs: 50, maxDelayMs: 500 }).maxDelayMs).toBe(500);
  });
});
