import { FaultInjector } from './fault-injector';

describe('FaultInjector', () => {
  it('injects nothing by default', () => {
    const injector = new FaultInjector(() => 0);
    expect([injector.shouldFail(), injector.shouldDropReply(), injector.latencyMs()]).toEqual([
      false,
      false,
      0,
    ]);
  });

  it('fails exactly the next n requests, then none', () => {
    const injector = new FaultInjector(() => 0.99);
    injector.update({ failNextRequests: 2 });
    expect([1, 2, 3].map(() => injector.shouldFail())).toEqual([true, true, false]);
    expect(injector.current()).toMatchObject({ failNextRequests: 0, failedRequests: 2 });
  });

  it('drops exactly the next n replies, then none', () => {
    const injector = new FaultInjector(() => 0.99);
    injector.update({ dropNextReplies: 1 });
    expect([1, 2].map(() => injector.shouldDropReply())).toEqual([true, false]);
    expect(injector.current()).toMatchObject({ dropNextReplies: 0, droppedReplies: 1 });
  });

  it('applies the rates against the random source', () => {
    const draws = [0.1, 0.6, 0.1, 0.6];
    const injector = new FaultInjector(() => draws.shift() ?? 1);
    injector.update({ errorRate: 0.5, dropReplyRate: 0.5 });
    expect([injector.shouldFail(), injector.shouldFail()]).toEqual([true, false]);
    expect([injector.shouldDropReply(), injector.shouldDropReply()]).toEqual([true, false]);
  });

  it('keeps the settings a partial update does not name', () => {
    const injector = new FaultInjector();
    injector.update({ latencyMs: 50, errorRate: 0.2 });
    expect(injector.update({ errorRate: 0 })).toMatchObject({ latencyMs: 50, errorRate: 0 });
  });
});
