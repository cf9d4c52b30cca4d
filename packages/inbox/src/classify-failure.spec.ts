import { EventValidationError } from '@outbox-inbox/messaging';
import { classifyFailure, failureCode } from './classify-failure';
import { InboxError, NonRetryableError } from './inbox.errors';

describe('classifyFailure', () => {
  it('dead-letters what the handler declares non-retryable, also when wrapped', () => {
    expect(classifyFailure(new NonRetryableError('amount mismatch'))).toBe('permanent');
    const wrapped = new Error('outer', { cause: new NonRetryableError('inner') });
    expect(classifyFailure(wrapped)).toBe('permanent');
  });

  it('dead-letters messages that cannot be read', () => {
    expect(classifyFailure(new InboxError('NOT_JSON', 'x'))).toBe('permanent');
    expect(classifyFailure(new InboxError('UNKNOWN_EVENT_TYPE', 'x'))).toBe('permanent');
    expect(classifyFailure(new EventValidationError('ParcelShipped', []))).toBe('permanent');
  });

  it('calls a missing table, column or grant a deployment fault, on either engine, also wrapped', () => {
    const queryFailed = (driverError: object) =>
      Object.assign(new Error('query failed'), { driverError });
    const faults = [
      queryFailed({
        errno: 1146,
        code: 'ER_NO_SUCH_TABLE',
        message: "Table 'x.t_inbox' doesn't exist",
      }),
      queryFailed({ errno: 1054, code: 'ER_BAD_FIELD_ERROR', message: "Unknown column 'a'" }),
      queryFailed({ errno: 1142, code: 'ER_TABLEACCESS_DENIED_ERROR', message: 'denied' }),
      queryFailed({ code: '42P01', message: 'relation "t_inbox" does not exist' }),
      new Error('handler', {
        cause: queryFailed({ code: '42703', message: 'column "a" does not exist' }),
      }),
      queryFailed({ code: '42501', message: 'permission denied for table t_inbox' }),
    ];
    for (const error of faults) expect(classifyFailure(error)).toBe('deployment');
    // A handler that declares its own failure final still decides.
    expect(classifyFailure(new NonRetryableError('x', { cause: faults[0] }))).toBe('permanent');
  });

  it('calls an unavailable dependency transient: it never dead-letters', () => {
    const transient = [
      Object.assign(new Error('Deadlock'), { errno: 1213 }),
      Object.assign(new Error('Lock wait timeout'), { errno: 1205 }),
      Object.assign(new Error('lost'), { code: 'ECONNRESET' }),
      Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('Connection lost: The server closed the connection.'), {
        code: 'PROTOCOL_CONNECTION_LOST',
      }),
      Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }),
      Object.assign(new Error('read-only'), { code: 'ER_OPTION_PREVENTS_STATEMENT', errno: 1290 }),
      // TypeORM's QueryFailedError keeps the driver's error as driverError
      Object.assign(new Error('query failed'), {
        driverError: Object.assign(new Error('gone'), { errno: 2006 }),
      }),
      Object.assign(new Error('Connection timeout'), {
        name: 'KafkaJSConnectionError',
        retriable: true,
      }),
      Object.assign(new Error('Request timed out'), { name: 'KafkaJSRequestTimeoutError' }),
    ];
    for (const error of transient)
      expect([error.message, classifyFailure(error)]).toEqual([error.message, 'transient']);
  });

  it('retries unknown errors a bounded number of times', () => {
    expect(classifyFailure(new Error('provider answered 503'))).toBe('retry');
    expect(classifyFailure(new TypeError('x is undefined'))).toBe('retry');
    expect(
      classifyFailure(
        Object.assign(new Error('topic authorization'), {
          name: 'KafkaJSProtocolError',
          retriable: false,
        }),
      ),
    ).toBe('retry');
  });

  it('names a failure by its code, else by its class', () => {
    expect(failureCode(Object.assign(new Error('x'), { code: 'ER_LOCK_DEADLOCK' }))).toBe(
      'ER_LOCK_DEADLOCK',
    );
    expect(failureCode(new TypeError('x'))).toBe('TypeError');
  });
});
