import { peerResults } from './peer-results';

const tuning = { pollingInterval: 20, maxEventsPerPoll: 100, poolSize: 20 };

describe('peerResults', () => {
  it('reports relay / peer and meets the target only at 20x or more', () => {
    const [atTarget] = peerResults({ relay: 6000, peer: 300, events: 10_000, rounds: 5, tuning });
    expect(atTarget).toMatchObject({ value: 6000, baselineValue: 300, ratio: 20, met: true });
    const [below] = peerResults({ relay: 5970, peer: 300, events: 10_000, rounds: 5, tuning });
    expect(below).toMatchObject({ ratio: 19.9, met: false });
  });

  it("names the peer's settings next to its rate", () => {
    const [, peer] = peerResults({ relay: 6000, peer: 300, events: 10_000, rounds: 5, tuning });
    expect(peer).toMatchObject({ value: 300, unit: 'events/s', ratio: 0.05 });
    expect(peer.metric).toContain('pollingInterval 20 ms, maxEventsPerPoll 100, pool 20');
  });
});
