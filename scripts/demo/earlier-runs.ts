import { kafkaSecurityFromEnv } from '@app/config';
import { testKafkaConfig } from '@outbox-inbox/test-kit';
import { Kafka, logLevel } from 'kafkajs';
import { createConnection } from 'mysql2/promise';

const DATABASES = ['order_service', 'fulfillment_service', 'accounting_service', 'coupon_provider'];
/** The users deploy/mysql/service-users.sql makes under a run's prefix, beside its databases. */
const USERS = [...DATABASES, 'migrator'];

/**
 * The demo owns the names under `<prefix>demo_<run>_` and `<topic prefix>demo.<run>.`: before a
 * run it drops the databases (and, on a real broker, the topics) that earlier runs left, so a
 * run's data can be looked at until the next run starts, and nothing piles up; and the database
 * users a run that did not stop cleanly left (a stack drops its own when it stops).
 */
export async function removeEarlierRuns(
  databasePrefix: string,
  topicPrefix: string,
  currentRun: string,
  mysqlUrl = (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, ''),
  kafkaBrokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean) ?? [],
): Promise<void> {
  const ownDatabase = new RegExp(
    `^${escape(databasePrefix)}demo_(r[0-9a-z]+)_(${DATABASES.join('|')})$`,
  );
  const connection = await createConnection({ uri: mysqlUrl });
  try {
    const [rows] = await connection.query('SHOW DATABASES');
    for (const row of rows as Array<Record<string, string>>) {
      const name = Object.values(row)[0];
      const match = ownDatabase.exec(name);
      if (match && match[1] !== currentRun) await connection.query(`DROP DATABASE \`${name}\``);
    }
    const ownUser = new RegExp(`^${escape(databasePrefix)}demo_(r[0-9a-z]+)_(${USERS.join('|')})$`);
    const [users] = await connection.query("SELECT User AS name FROM mysql.user WHERE Host = '%'");
    for (const { name } of users as Array<{ name: string }>) {
      const match = ownUser.exec(name);
      if (match && match[1] !== currentRun) await connection.query(`DROP USER '${name}'@'%'`);
    }
  } finally {
    await connection.end();
  }
  if (kafkaBrokers.length === 0) return; // the mock's topics end with its process
  const ownTopic = new RegExp(`^${escape(topicPrefix)}demo\\.(r[0-9a-z]+)\\.`);
  // Deleting topics is the admin's: on the secured cluster of this machine, its admin.
  const admin = new Kafka(
    testKafkaConfig({
      clientId: 'demo',
      brokers: kafkaBrokers,
      ...kafkaSecurityFromEnv(),
      logLevel: logLevel.NOTHING,
    }),
  ).admin();
  await admin.connect();
  try {
    const stale = (await admin.listTopics()).filter((t) => {
      const match = ownTopic.exec(t);
      return match !== null && match[1] !== currentRun;
    });
    if (stale.length > 0) await admin.deleteTopics({ topics: stale });
  } finally {
    await admin.disconnect();
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
