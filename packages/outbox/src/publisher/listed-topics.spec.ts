import { ListedTopics } from './listed-topics';

const nothingDenied = async () => false;

describe('ListedTopics', () => {
  it('names the topics the listing lacks, and lists again only when it lacks one or is stale', async () => {
    const listings: string[][] = [
      ['a', 'b'],
      ['a', 'b', 'c'],
    ];
    let asked = 0;
    const listed = new ListedTopics(
      { list: async () => listings[Math.min(asked++, 1)], denied: nothingDenied },
      60_000,
    );
    expect(await listed.missing(['a', 'c'])).toEqual(['c']);
    expect(asked).toBe(1);
    expect(await listed.missing(['a'])).toEqual([]);
    expect(asked).toBe(1); // fresh and complete: not asked again
    expect(await listed.missing(['c'])).toEqual([]); // lacked c: asked again, now listed
    expect(asked).toBe(2);
  });

  it('lists again after forget()', async () => {
    let asked = 0;
    const listed = new ListedTopics(
      { list: async () => (asked++, ['a']), denied: nothingDenied },
      60_000,
    );
    await listed.missing(['a']);
    listed.forget();
    await listed.missing(['a']);
    expect(asked).toBe(2);
  });

  it('tells a topic the ACLs hide from the listing from one that is missing, asking only about unlisted ones', async () => {
    // A principal without DESCRIBE on a topic does not see it listed; asked by name, the
    // broker says whether it is denied.
    const askedByName: string[] = [];
    const listed = new ListedTopics(
      {
        list: async () => ['listed'],
        denied: async (topic) => (askedByName.push(topic), topic === 'hidden'),
      },
      60_000,
    );
    expect(await listed.missing(['listed', 'hidden', 'absent'])).toEqual(['absent']);
    expect(askedByName).toEqual(['hidden', 'absent']);
  });
});
