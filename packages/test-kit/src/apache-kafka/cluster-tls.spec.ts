import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClusterTls, makeExpiredNodeKeystore } from './cluster-tls';

/** The certificate of a PEM keystore (the key first, then the certificate). */
function certificateOf(keystoreFile: string): X509Certificate {
  const pem = readFileSync(keystoreFile, 'utf8');
  return new X509Certificate(pem.slice(pem.indexOf('-----BEGIN CERTIFICATE-----')));
}

describe('the kit’s cluster certificates', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-tls-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('signs a node certificate for 127.0.0.1 with the CA, valid now', () => {
    const { caFile, keystoreFile } = makeClusterTls(dir);
    const ca = new X509Certificate(readFileSync(caFile));
    const node = certificateOf(keystoreFile);
    expect(node.verify(ca.publicKey)).toBe(true);
    expect(node.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(new Date(node.validFrom).getTime()).toBeLessThanOrEqual(Date.now());
    expect(new Date(node.validTo).getTime()).toBeGreaterThan(Date.now());
  });

  it('signs, with the same CA and name, a node certificate that expired before today', () => {
    const ca = new X509Certificate(readFileSync(join(dir, 'ca.pem')));
    const expired = certificateOf(makeExpiredNodeKeystore(dir));
    expect(expired.verify(ca.publicKey)).toBe(true);
    expect(expired.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(new Date(expired.validTo).getTime()).toBeLessThan(Date.now());
    expect(new Date(expired.validFrom).getTime()).toBeLessThan(new Date(expired.validTo).getTime());
    // Nothing of the CA's throwaway database is left beside the keystores.
    expect(readdirSync(dir).sort()).toEqual([
      'ca.key',
      'ca.pem',
      'expired-node-keystore.pem',
      'node-keystore.pem',
    ]);
  });
});
