import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The PEM files a secured cluster's TLS runs on. */
export interface ClusterTlsFiles {
  /** The CA's certificate: what clients trust (kafkajs `ssl.ca`, KAFKA_SSL_CA_FILE). */
  caFile: string;
  /** The nodes' private key (PKCS#8, unencrypted) followed by their certificate: a PEM keystore. */
  keystoreFile: string;
}

/**
 * Makes a CA and, signed by it, one certificate for every node (they all listen on
 * 127.0.0.1, so one name fits all), with openssl: nothing is downloaded, and the CA's key
 * never leaves `dir`. The nodes read PEM directly (`ssl.keystore.type=PEM`), so no keytool
 * and no store passwords. Valid for 30 days: a cluster of the kit lives for a test run.
 */
export function makeClusterTls(dir: string): ClusterTlsFiles {
  mkdirSync(dir, { recursive: true });
  const file = (name: string) => join(dir, name);
  // P-256 keys: made in milliseconds, and every JVM and Node.js speaks them.
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl([
    'req',
    '-x509',
    ...newKey,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '30',
    '-subj',
    '/CN=apache-kafka-cluster test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl([
    'req',
    ...newKey,
    '-keyout',
    file('node.key'),
    '-out',
    file('node.csr'),
    '-subj',
    '/CN=localhost',
  ]);
  // The address clients and nodes dial is 127.0.0.1: hostname verification checks the IP SAN.
  writeFileSync(
    file('node.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n',
  );
  openssl([
    'x509',
    '-req',
    '-in',
    file('node.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('node.crt'),
    '-days',
    '30',
    '-extfile',
    file('node.ext'),
  ]);
  const keystoreFile = file('node-keystore.pem');
  writeFileSync(
    keystoreFile,
    readFileSync(file('node.key'), 'utf8') + readFileSync(file('node.crt'), 'utf8'),
  );
  for (const temporary of ['node.csr', 'node.ext', 'node.key', 'ca.srl'])
    rmSync(file(temporary), { force: true });
  return { caFile: file('ca.pem'), keystoreFile };
}

function openssl(args: string[]): void {
  const result = spawnSync('openssl', args, { encoding: 'utf8' });
  if (result.error) throw new Error(`openssl could not run (is it installed?): ${result.error}`);
  if (result.status !== 0)
    throw new Error(`openssl ${args[0]} failed (exit ${result.status}):\n${result.stderr}`);
}
