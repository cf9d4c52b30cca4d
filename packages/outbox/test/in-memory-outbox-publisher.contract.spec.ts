import { InMemoryOutboxPublisher, runOutboxPublisherContract } from '../src/testing';

const twins = new Map<string, InMemoryOutboxPublisher>();

runOutboxPublisherContract('in-memory twin', {
  async start() {
    const topics: [string, string] = ['twin.a', 'twin.b'];
    const publisher = new InMemoryOutboxPublisher({ topics });
    for (const topic of topics) twins.set(topic, publisher);
    return { publisher, topics };
  },
  async received(topic) {
    return twins.get(topic)!.messages(topic);
  },
  stop: ({ publisher }) => publisher.disconnect(),
});
