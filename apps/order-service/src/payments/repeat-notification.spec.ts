import { differingFields, NotificationDecision } from './repeat-notification';

const processed: NotificationDecision = {
  orderId: '42',
  payOrderId: 'pay_1',
  amount: 1999,
  currency: 'EUR',
  status: 'SUCCESS',
};

describe('differingFields', () => {
  it('finds none when a repeat equals the processed notification', () => {
    expect(differingFields(processed, { ...processed })).toEqual([]);
  });

  it.each([
    ['orderId', '43'],
    ['payOrderId', 'pay_2'],
    ['amount', 1998],
    ['currency', 'USD'],
    ['status', 'FAILED'],
  ] as const)('names %s when only it differs', (field, value) => {
    expect(differingFields(processed, { ...processed, [field]: value })).toEqual([field]);
  });

  it('names every field that differs, in a fixed order', () => {
    expect(
      differingFields(processed, { ...processed, status: 'FAILED', amount: 1, currency: 'USD' }),
    ).toEqual(['amount', 'currency', 'status']);
  });
});
