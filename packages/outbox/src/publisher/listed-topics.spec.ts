import { adminTopicListing, ListedTopics } from './listed-topics';

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

describe('adminTopicListing', () => {
  it("connects before each question, and calls a topic denied only on the client's TOPIC_AUTHORIZATION_FAILED", async () => {
    const refusals: Record<string, string> = {
      hidden: 'TOPIC_AUTHORIZATION_FAILED',
      gone: 'UNKNOWN_TOPIC_OR_PARTITION',
    };
    let connects = 0;
    const listing = adminTopicListing(
      {
        listTopics: async () => ['listed'],
        fetchTopicMetadata: async ({ topics: [topic] }) => {
          if (refusals[topic]) throw Object.assign(new Error(topic), { code: refusals[topic] });
          return {};
        },
      },
      async () => void connects++,
      (error) => (error as { code?: string }).code,
    );
    expect(await listing.list()).toEqual(['listed']);
    expect(await listing.denied('hidden')).toBe(true);
    expect(await listing.denied('gone')).toBe(false);
    expect(await listing.denied('listed')).toBe(false);
    expect(connects).toBe(4);
  });
});
