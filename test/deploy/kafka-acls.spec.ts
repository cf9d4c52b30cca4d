import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kafkaAccessCommands, kafkaAccessPlan, PlannedAcl } from '@outbox-inbox/test-kit';
import { consumerChannels, topicForAggregate } from '@app/trading-events';

/**
 * deploy/kafka/acls.json, the one operator step for topics and ACLs, names what the services
 * use (the same functions name them in the code), and gives each principal no more than its
 * part of the chain; test/kafka-security shows the cluster enforcing it.
 */
const ROOT = join(__dirname, '..', '..');
const PREFIX = 'trading.';
const plan = kafkaAccessPlan(PREFIX);
const fulfillment = consumerChannels('fulfillment-service', PREFIX);
const accounting = consumerChannels('accounting-service', PREFIX);
const events = {
  order: topicForAggregate('Order', PREFIX),
  fulfillment: topicForAggregate('Fulfillment', PREFIX),
};

/** A principal's rules as `OPERATION TOPIC|GROUP prefix` lines, sorted. */
function rulesOf(principal: string): string[] {
  return plan.acls
    .filter((a: PlannedAcl) => a.principal === principal)
    .map((a) => `${a.operation} ${a.resourceType} ${a.prefix}`)
    .sort();
}

describe('deploy/kafka/acls.json', () => {
  it('creates every topic the services read and write: both event topics, and each consumer’s dead-letter and retry topics', () => {
    expect(plan.topics.map((t) => t.name).sort()).toEqual(
      [
        events.order,
        events.fulfillment,
        fulfillment.deadLetterTopic,
        fulfillment.retryTopic,
        accounting.deadLetterTopic,
        accounting.retryTopic,
      ].sort(),
    );
  });

  it('order-service may only write its own events', () => {
    expect(rulesOf('order-service')).toEqual([`WRITE TOPIC ${events.order}`]);
  });

  it('fulfillment-service reads the order events with its group, writes its events, its dead letters and its replays', () => {
    expect(rulesOf('fulfillment-service')).toEqual(
      [
        `READ TOPIC ${events.order}`,
        `READ GROUP ${fulfillment.groupId}`,
        `WRITE TOPIC ${events.fulfillment}`,
        `READ TOPIC ${fulfillment.deadLetterTopic}`,
        `WRITE TOPIC ${fulfillment.deadLetterTopic}`,
        `READ TOPIC ${fulfillment.retryTopic}`,
        `WRITE TOPIC ${fulfillment.retryTopic}`,
        'READ GROUP inbox-dlq-reader-',
      ].sort(),
    );
  });

  it('accounting-service reads both event topics with its group, and writes only its dead letters and replays', () => {
    expect(rulesOf('accounting-service')).toEqual(
      [
        `READ TOPIC ${events.order}`,
        `READ TOPIC ${events.fulfillment}`,
        `READ GROUP ${accounting.groupId}`,
        `READ TOPIC ${accounting.deadLetterTopic}`,
        `WRITE TOPIC ${accounting.deadLetterTopic}`,
        `READ TOPIC ${accounting.retryTopic}`,
        `WRITE TOPIC ${accounting.retryTopic}`,
        'READ GROUP inbox-dlq-reader-',
      ].sort(),
    );
  });

  it("the operators' CLI writes nothing and joins only the checker's throwaway groups", () => {
    const rules = rulesOf('trading-ops');
    expect(rules.filter((r) => r.startsWith('WRITE'))).toEqual([]);
    expect(rules.filter((r) => r.startsWith('READ GROUP'))).toEqual([
      'READ GROUP invariant-checker-',
    ]);
  });

  it('the group prefixes outside TOPIC_PREFIX are the ones the topic readers use', () => {
    const source = (file: string) => readFileSync(join(ROOT, file), 'utf8');
    expect(source('packages/inbox/src/operations/inbox-dead-letters.ts')).toContain(
      "groupPrefix: 'inbox-dlq-reader'",
    );
    expect(source('libs/trading-checker/src/read/event-stream.ts')).toContain(
      "groupPrefix: 'invariant-checker'",
    );
  });

  it("fills in the deployment's prefix, and prints the same step as Kafka's own tools run it", () => {
    const throwaway = ['inbox-dlq-reader-', 'invariant-checker-'];
    const other = kafkaAccessPlan('acme.');
    expect(other.topics.every((t) => t.name.startsWith('acme.'))).toBe(true);
    expect(
      other.acls.filter((a) => !a.prefix.startsWith('acme.') && !throwaway.includes(a.prefix)),
    ).toEqual([]);
    const commands = kafkaAccessCommands(plan, 'kafka:9093');
    expect(commands).toContain(
      'kafka-acls.sh --bootstrap-server kafka:9093 --command-config admin.properties --add ' +
        `--allow-principal User:order-service --operation WRITE --topic ${events.order} ` +
        '--resource-pattern-type prefixed',
    );
    expect(commands).toHaveLength(plan.topics.length + plan.acls.length);
  });
});
