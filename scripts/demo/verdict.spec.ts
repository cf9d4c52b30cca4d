import { OrderState } from './run-state';
import { deadLetter, drillOf, orderAtRest, runOf } from './run-state.fixtures';
import { judgeRun, RunExpectations, verdictLine } from './verdict';

const REPLAYED_AT = '2026-12-09T10:00:00.000Z';
const topics: RunExpectations['consumerTopics'] = {
  'fulfillment-service': ['t.order'],
  'accounting-service': ['t.order', 't.fulfillment'],
};
const noViolations = { violations: [] };

/** The drill's order: its OrderPaid and FulfillmentDone dead-lettered at the ledger first. */
const drillLetters = () => [
  deadLetter('OrderPaid:2:3', 0, REPLAYED_AT),
  deadLetter('FulfillmentDone:f2:1', 1, REPLAYED_AT),
];

/** The drill's order before its replay was applied: nothing booked, no inbox row of either. */
function unbooked(id: string): OrderState {
  const order = orderAtRest(id);
  return {
    ...order,
    journals: {},
    inbox: {
      ...order.inbox,
      'accounting-service': order.inbox['accounting-service'].filter(
        (r) => r.outcome === 'ignored',
      ),
    },
  };
}

function verdict(state: ReturnType<typeof runOf>, drill = drillOf('2', drillLetters())): string {
  const expectations = { republished: {}, consumerTopics: topics, drill };
  return verdictLine(judgeRun(state, expectations, noViolations), state);
}

describe('the demo verdict', () => {
  it('passes when the staged dead letters were replayed and applied, and says how many', () => {
    const state = runOf([orderAtRest('1'), orderAtRest('2')], {
      'accounting-service': drillLetters(),
    });

    expect(verdict(state)).toMatch(
      /^demo: PASS 2 orders paid, fulfilled and booked once, 2 dead letters replayed; \d+ checks and the invariant checker hold$/,
    );
  });

  it('fails on a dead letter left behind, even when the drill replayed its own', () => {
    const state = runOf([orderAtRest('1'), orderAtRest('2')], {
      'fulfillment-service': [deadLetter('OrderPaid:1:3', 7, null, 'NOT_JSON')],
      'accounting-service': drillLetters(),
    });

    expect(verdict(state)).toBe(
      'demo: FAIL fulfillment-service-dead-letters-replayed: dead letters left behind: OrderPaid:1:3 (NOT_JSON) not replayed',
    );
  });

  it('fails on a replay that was dead-lettered again, naming both letters', () => {
    const state = runOf([orderAtRest('1'), unbooked('2')], {
      'accounting-service': [...drillLetters(), deadLetter('OrderPaid:2:3', 2, null)],
    });

    expect(verdict(state)).toMatch(
      /^demo: FAIL accounting-service-dead-letters-replayed: dead letters left behind: OrderPaid:2:3 \(NON_RETRYABLE\) replayed, not applied, FulfillmentDone:f2:1 \(NON_RETRYABLE\) replayed, not applied, OrderPaid:2:3 \(NON_RETRYABLE\) not replayed \(and 2 more failed checks\)$/,
    );
  });

  it('fails when the drill saw no dead letter, so the pattern was not shown', () => {
    const state = runOf([orderAtRest('1'), orderAtRest('2')]);

    expect(verdict(state, drillOf('2', []))).toBe(
      "demo: FAIL dead-letter-drill: accounting-service dead-lettered nothing of order 2 (paid in CHF) within the drill's wait",
    );
  });

  it('fails when the drill did not replay its dead letters', () => {
    const letters = drillLetters().map((l) => ({ ...l, replayedAt: null }));
    const state = runOf([orderAtRest('1'), unbooked('2')], { 'accounting-service': letters });

    expect(verdict(state, drillOf('2', letters, 0))).toMatch(
      /^demo: FAIL dead-letter-drill: 0 of the 2 dead letters of order 2 \(paid in CHF\) replayed \(and 3 more failed checks\)$/,
    );
  });

  it('needs no dead letter from a run without the drill (the demo driver against compose)', () => {
    const state = runOf([orderAtRest('1')]);
    const expectations = { republished: {}, consumerTopics: topics };

    expect(verdictLine(judgeRun(state, expectations, noViolations), state)).toMatch(
      /^demo: PASS 1 orders paid, fulfilled and booked once; \d+ checks/,
    );
  });
});
