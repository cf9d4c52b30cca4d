import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// P-256 keys: made in milliseconds, and every JVM and Node.js speaks them.
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

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
  openssl([
    'req',
    '-x509',
    ...NEW_KEY,
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
  const keystoreFile = signNodeKeystore(dir, 'node', ['-days', '30']);
  return { caFile: file('ca.pem'), keystoreFile };
}

/**
 * A PEM keystore (`<dir>/<name>-keystore.pem`) for the nodes whose certificate, signed by the
 * CA that makeClusterTls made in `dir`, expired before this day: what a cluster serves when its
 * certificates were not renewed in time. OpenSSL 3.0's `x509` cannot date a certificate in the
 * past (`-days` is never negative, `-not_before` came in 3.4), so `openssl ca` signs it with
 * `-startdate` and `-enddate`, from a throwaway database in `dir`.
 */
export function makeExpiredNodeKeystore(dir: string, name = 'expired-node'): string {
  const file = (f: string) => join(dir, f);
  const db = file(`${name}.ca-db`);
  mkdirSync(db, { recursive: true });
  writeFileSync(join(db, 'index.txt'), '');
  writeFileSync(join(db, 'serial'), `${randomBytes(8).toString('hex')}\n`);
  writeFileSync(
    file(`${name}.ca.cnf`),
    [
      '[ca]',
      'default_ca = kit',
      '[kit]',
      `database = ${join(db, 'index.txt')}`,
      `serial = ${join(db, 'serial')}`,
      `new_certs_dir = ${db}`,
      'default_md = sha256',
      'policy = any',
      'unique_subject = no',
      '[any]',
      'commonName = supplied',
      '',
    ].join('\n'),
  );
  const day = 24 * 3_600_000;
  const keystore = signNodeKeystore(dir, name, [], (csr, ext, crt) => [
    'ca',
    '-batch',
    '-notext',
    '-config',
    file(`${name}.ca.cnf`),
    '-cert',
    file('ca.pem'),
    '-keyfile',
    file('ca.key'),
    '-in',
    csr,
    '-out',
    crt,
    '-extfile',
    ext,
    '-startdate',
    opensslDate(new Date(Date.now() - 30 * day)),
    '-enddate',
    opensslDate(new Date(Date.now() - day)),
  ]);
  rmSync(db, { recursive: true, force: true });
  rmSync(file(`${name}.ca.cnf`), { force: true });
  return keystore;
}

/** `YYYYMMDDHHMMSSZ`, as `openssl ca -startdate` takes it. */
function opensslDate(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

/**
 * A new key and, signed by `dir`'s CA, a certificate for 127.0.0.1 (with `validity`, or as
 * `sign` asks openssl for it), joined into `<dir>/<name>-keystore.pem`.
 */
function signNodeKeystore(
  dir: string,
  name: string,
  validity: string[],
  sign?: (csr: string, ext: string, crt: string) => string[],
): string {
  const file = (f: string) => join(dir, `${name}.${f}`);
  openssl([
    'req',
    ...NEW_KEY,
    '-keyout',
    file('key'),
    '-out',
    file('csr'),
    '-subj',
    '/CN=localhost',
  ]);
  // The address clients and nodes dial is 127.0.0.1: hostname verification checks the IP SAN.
  writeFileSync(
    file('ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n',
  );
  openssl(
    sign?.(file('csr'), file('ext'), file('crt')) ?? [
      'x509',
      '-req',
      '-in',
      file('csr'),
      '-CA',
      join(dir, 'ca.pem'),
      '-CAkey',
      join(dir, 'ca.key'),
      '-CAcreateserial',
      '-out',
      file('crt'),
      ...validity,
      '-extfile',
      file('ext'),
    ],
  );
  const keystoreFile = join(dir, `${name}-keystore.pem`);
  writeFileSync(
    keystoreFile,
    readFileSync(file('key'), 'utf8') + readFileSync(file('crt'), 'utf8'),
  );
  for (const temporary of ['csr', 'ext', 'key', 'crt']) rmSync(file(temporary), { force: true });
  rmSync(join(dir, 'ca.srl'), { force: true });
  return keystoreFile;
}

function openssl(args: string[]): void {
  const result = spawnSync('openssl', args, { encoding: 'utf8' });
  if (result.error) throw new Error(`openssl could not run (is it installed?): ${result.error}`);
  if (result.status !== 0)
    throw new Error(`openssl ${args[0]} failed (exit ${result.status}):\n${result.stderr}`);
}
