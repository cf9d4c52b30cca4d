import { CodedError } from './coded-error';
import { EventValidationError } from './validation';

describe('CodedError', () => {
  it('carries its code, message and cause', () => {
    const cause = new Error('socket closed');
    const error = new CodedError('BROKEN', 'it broke', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: 'BROKEN', message: 'it broke', cause });
  });

  it("keeps each package error's own name and code", () => {
    const error = new EventValidationError('ParcelShipped', []);
    expect(error).toBeInstanceOf(CodedError);
    expect(error.name).toBe('EventValidationError');
    expect(error.code).toBe('INVALID_EVENT');
    expect(String(error)).toMatch(/^EventValidationError: ParcelShipped is invalid/);
  });
});
