/**
 * The cluster's topic listing, asked again when it is older than `maxAgeMs` or lacks a topic
 * asked about: the publishers check their topics against it rather than let a send create one.
 */
export class ListedTopics {
  private known = new Set<string>();
  private listedAt = 0;

  constructor(
    private readonly list: () => Promise<string[]>,
    private readonly maxAgeMs: number,
  ) {}

  /** The topics of `topics` the cluster does not list. */
  async unlisted(topics: string[]): Promise<string[]> {
    const stale = Date.now() - this.listedAt > this.maxAgeMs;
    if (stale || topics.some((t) => !this.known.has(t))) {
      this.known = new Set(await this.list());
      this.listedAt = Date.now();
    }
    return topics.filter((t) => !this.known.has(t));
  }

  /** Makes the next question list the topics again (a send was refused a topic). */
  forget(): void {
    this.listedAt = 0;
  }
}
