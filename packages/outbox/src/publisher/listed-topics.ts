/** How a publisher asks its client about the cluster's topics. */
export interface TopicListing {
  /** The topics the cluster lists to this client. */
  list(): Promise<string[]>;
  /**
   * Whether the cluster answers TOPIC_AUTHORIZATION_FAILED when asked for `topic`'s metadata
   * by name.
   */
  denied(topic: string): Promise<boolean>;
}

/** What `adminTopicListing` needs of a client's admin: kafkajs's and the confluent client's. */
export interface TopicAdmin {
  listTopics(): Promise<string[]>;
  fetchTopicMetadata(request: { topics: string[] }): Promise<unknown>;
}

/**
 * The listing through `admin`, connected on first use by `connected`; `refusalOf` reads the
 * client's error for the topic's refusal code.
 */
export function adminTopicListing(
  admin: TopicAdmin,
  connected: () => Promise<void>,
  refusalOf: (error: unknown) => string | undefined,
): TopicListing {
  return {
    list: async () => {
      await connected();
      return admin.listTopics();
    },
    denied: async (topic) => {
      try {
        await connected();
        await admin.fetchTopicMetadata({ topics: [topic] });
        return false;
      } catch (error) {
        return refusalOf(error) === 'TOPIC_AUTHORIZATION_FAILED';
      }
    },
  };
}

/**
 * The cluster's topic listing, asked again when it is older than `maxAgeMs` or lacks a topic
 * asked about: the publishers check their topics against it rather than let a send create one.
 */
export class ListedTopics {
  private known = new Set<string>();
  private listedAt = 0;

  constructor(
    private readonly listing: TopicListing,
    private readonly maxAgeMs: number,
  ) {}

  /**
   * The topics of `topics` the cluster does not have. A principal without DESCRIBE on a topic
   * does not see it in the listing either: such a topic is asked about by name, and one the
   * ACLs deny is not missing. Its send then fails with TOPIC_AUTHORIZATION_FAILED, which names
   * the right remedy (grant the ACL, not create the topic).
   */
  async missing(topics: string[]): Promise<string[]> {
    const missing: string[] = [];
    for (const topic of await this.unlisted(topics)) {
      if (!(await this.listing.denied(topic))) missing.push(topic);
    }
    return missing;
  }

  /** Makes the next question list the topics again (a send was refused a topic). */
  forget(): void {
    this.listedAt = 0;
  }

  private async unlisted(topics: string[]): Promise<string[]> {
    const stale = Date.now() - this.listedAt > this.maxAgeMs;
    if (stale || topics.some((t) => !this.known.has(t))) {
      this.known = new Set(await this.listing.list());
      this.listedAt = Date.now();
    }
    return topics.filter((t) => !this.known.has(t));
  }
}
