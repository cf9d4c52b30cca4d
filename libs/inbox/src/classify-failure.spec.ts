import { EventValidationError } from '@app/contracts';
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
    expect(classifyFailure(new EventValidationError('OrderPaid', []))).toBe('permanent');
  });

  it('retries deadlocks, lost connections and unknown errors', () => {
    expect(classifyFailure(Object.assign(new Error('Deadlock'), { errno: 1213 }))).toBe('retry');
    expect(classifyFailure(Object.assign(new Error('lost'), { code: 'ECONNRESET' }))).toBe('retry');
    expect(classifyFailure(new Error('provider answered 503'))).toBe('retry');
  });

  it('names a failure by its code, else by its class', () => {
    expect(failureCode(Object.assign(new Error('x'), { code: 'ER_LOCK_DEADLOCK' }))).toBe(
      'ER_LOCK_DEADLOCK',
    );
    expect(failureCode(new TypeError('x'))).toBe('TypeError');
  });
});
