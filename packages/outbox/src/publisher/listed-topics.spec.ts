import { ListedTopics } from './listed-topics';

describe('ListedTopics', () => {
  it('names the topics the listing lacks, and lists again only when it lacks one or is stale', async () => {
    const listings: string[][] = [
      ['a', 'b'],
      ['a', 'b', 'c'],
    ];
    let asked = 0;
    const listed = new ListedTopics(async () => listings[Math.min(asked++, 1)], 60_000);
    expect(await listed.unlisted(['a', 'c'])).toEqual(['c']);
    expect(asked).toBe(1);
    expect(await listed.unlisted(['a'])).toEqual([]);
    expect(asked).toBe(1); // fresh and complete: not asked again
    expect(await listed.unlisted(['c'])).toEqual([]); // lacked c: asked again, now listed
    expect(asked).toBe(2);
  });

  it('lists again after forget()', async () => {
    let asked = 0;
    const listed = new ListedTopics(async () => (asked++, ['a']), 60_000);
    await listed.unlisted(['a']);
    listed.forget();
    await listed.unlisted(['a']);
    expect(asked).toBe(2);
  });
});
