import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { pinnedApacheKafkaVersion } from '@outbox-inbox/test-kit';

/**
 * Compose and testcontainers run what CI tests: the Apache Kafka release tools/apache-kafka
 * pins (and .ci/run installs), and the MariaDB series .ci/run starts.
 */
const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, { image?: string }>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { IMAGES } = require('../testcontainers') as { IMAGES: { database: string; kafka: string } };

/** The MariaDB series CI runs, e.g. "10.11": Debian's package .ci/run starts. */
function ciMariaDbSeries(): string {
  const series = /^MARIADB_SERIES=(\d+\.\d+)$/m.exec(read('.ci/run'))?.[1];
  if (!series) throw new Error('.ci/run names no MARIADB_SERIES=<major.minor>');
  return series;
}

describe('pinned images', () => {
  const kafka = `apache/kafka:${pinnedApacheKafkaVersion()}`;

  it('.ci/run installs the broker from tools/apache-kafka/pom.xml', () => {
    expect(read('.ci/run')).toMatch(/tools\/apache-kafka\/build\.sh|npm run build:apache-kafka/);
  });

  it('docker-compose.yml runs the Apache Kafka release the pom pins, everywhere it runs Kafka', () => {
    const kafkaImages = Object.values(compose.services)
      .map((s) => s.image)
      .filter((image) => image?.startsWith('apache/kafka') || /kafka/i.test(image ?? ''));
    expect(kafkaImages.length).toBeGreaterThan(0);
    expect(new Set(kafkaImages)).toEqual(new Set([kafka]));
  });

  it('docker-compose.yml runs MariaDB of the series CI tests', () => {
    expect(compose.services.mysql.image).toBe(`mariadb:${ciMariaDbSeries()}`);
  });

  it('testcontainers runs the same images', () => {
    expect(IMAGES).toEqual({ database: `mariadb:${ciMariaDbSeries()}`, kafka });
  });
});
