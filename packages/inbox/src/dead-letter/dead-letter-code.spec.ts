import { EventValidationError } from '@outbox-inbox/messaging';
import { DEAD_LETTER_CODES, InboxError, NonRetryableError } from '../inbox.errors';
import { deadLetterCode } from './dead-letter-code';

describe('deadLetterCode', () => {
  it('names an invalid envelope INVALID_EVENT, the code the README lists', () => {
    expect(deadLetterCode(new EventValidationError('ParcelShipped', []))).toBe('INVALID_EVENT');
  });

  it('keeps the inbox codes of unreadable messages and exhausted retries', () => {
    expect(deadLetterCode(new InboxError('NOT_JSON', 'x'))).toBe('NOT_JSON');
    expect(deadLetterCode(new InboxError('UNKNOWN_EVENT_TYPE', 'x'))).toBe('UNKNOWN_EVENT_TYPE');
    const exhausted = new InboxError('RETRIES_EXHAUSTED', 'x', {
      cause: Object.assign(new Error('Deadlock'), { code: 'ER_LOCK_DEADLOCK' }),
    });
    expect(deadLetterCode(exhausted)).toBe('RETRIES_EXHAUSTED');
  });

  it('finds a handler refusal along the cause chain', () => {
    const refused = new Error('outer', { cause: new NonRetryableError('inner') });
    expect(deadLetterCode(refused)).toBe('NON_RETRYABLE');
  });

  it('never answers a code outside DEAD_LETTER_CODES', () => {
    const driver = Object.assign(new Error('x'), { code: 'ER_DUP_ENTRY' });
    expect(DEAD_LETTER_CODES).toContain(deadLetterCode(driver));
  });
});
