import { checkInvariants, formatInvariantReport, invariantTargets } from '@app/trading-checker';
import { kafkaSecurityFromEnv } from '@app/config';
import { Command, Option } from 'nest-commander';
import { EXIT, invalidArgument, UsageError } from '../ops-errors';
import { OpsCommand } from './ops-command';

interface CheckInvariantsOptions {
  mysqlUrl?: string;
  kafkaBrokers?: string[];
  databasePrefix?: string;
  topicPrefix?: string;
  quiescent?: boolean;
  json?: boolean;
}

/**
 * `ops check:invariants`: reads the four databases and the topics of a deployment and reports
 * every broken promise with its ids. Exit 0 when all hold, 1 on a violation.
 */
@Command({
  name: 'check:invariants',
  description: "check a deployment's databases and topics against the pipeline's promises",
})
export class CheckInvariantsCommand extends OpsCommand {
  @Option({
    flags: '--mysql-url <url>',
    description: 'MySQL server URL without a database',
    env: 'MYSQL_URL',
    defaultValue: 'mysql://root@127.0.0.1:3306',
  })
  parseMysqlUrl(value: string): string {
    if (!/^mysql:\/\/\S+$/.test(value)) throw invalidArgument('must be a mysql:// URL');
    return value;
  }

  @Option({
    flags: '--kafka-brokers <list>',
    description: 'comma-separated bootstrap servers',
    env: 'KAFKA_BROKERS',
  })
  parseKafkaBrokers(value: string): string[] {
    const brokers = value.split(',').filter(Boolean);
    if (brokers.some((b) => !/^[^\s:]+:\d{1,5}$/.test(b))) {
      throw invalidArgument('must be host:port[,host:port…]');
    }
    return brokers; // empty (an empty KAFKA_BROKERS) is reported by run()
  }

  @Option({
    flags: '--database-prefix <prefix>',
    description: "prefix of the four database names (default '')",
    env: 'DATABASE_PREFIX',
  })
  parseDatabasePrefix(value: string): string {
    return value;
  }

  @Option({
    flags: '--topic-prefix <prefix>',
    description: "prefix of the event topics (default 'trading.')",
    env: 'TOPIC_PREFIX',
  })
  parseTopicPrefix(value: string): string {
    return value;
  }

  @Option({ flags: '--quiescent', description: 'at rest: anything in flight is a violation' })
  parseQuiescent(): boolean {
    return true;
  }

  @Option({ flags: '--json', description: 'print the report as JSON' })
  parseJson(): boolean {
    return true;
  }

  async run(_params: string[], options: CheckInvariantsOptions): Promise<void> {
    if (!options.kafkaBrokers?.length) {
      throw new UsageError('check:invariants needs --kafka-brokers (or KAFKA_BROKERS)');
    }
    const targets = invariantTargets({
      mysqlUrl: options.mysqlUrl ?? 'mysql://root@127.0.0.1:3306',
      kafkaBrokers: options.kafkaBrokers,
      kafkaSecurity: kafkaSecurityFromEnv(),
      databasePrefix: options.databasePrefix ?? '',
      topicPrefix: options.topicPrefix ?? 'trading.',
    });
    const report = await checkInvariants(targets, { quiescent: options.quiescent ?? false });
    process.stdout.write(
      `${options.json ? JSON.stringify(report, null, 2) : formatInvariantReport(report)}\n`,
    );
    if (!report.ok) process.exitCode = EXIT.failed;
  }
}
