import { Inject, Injectable } from '@nestjs/common';
import { OperatorAuditRecord } from '@outbox-inbox/database';
import { getPeerJson, PEER_OPTIONS, PeerOptions, PeerSection } from '../timeline/peer-client';

/** An audit record with the service it was taken at. */
export interface ServiceAuditRecord extends OperatorAuditRecord {
  service: string;
}

/** GET /ops/audit: every service's operator actions, newest first, and which could not be read. */
export interface OpsAudit {
  records: ServiceAuditRecord[];
  unavailable: Array<{ service: string; error: string }>;
}

/**
 * Reads the operator audit logs of every service into one list, with the caller's
 * Authorization header (the operator's own token).
 */
@Injectable()
export class OpsAuditReader {
  constructor(@Inject(PEER_OPTIONS) private readonly peers: PeerOptions) {}

  async read(authorization: string | undefined, limit = 100): Promise<OpsAudit> {
    const { orderUrl, fulfillmentUrl, accountingUrl, timeoutMs } = this.peers;
    const peer = { timeoutMs, authorization };
    const sections: Array<[string, Promise<PeerSection<OperatorAuditRecord[]>>]> = [
      ['order-service', getPeerJson(`${orderUrl}/outbox/audit?limit=${limit}`, peer)],
      ['fulfillment-service', getPeerJson(`${fulfillmentUrl}/outbox/audit?limit=${limit}`, peer)],
      ['fulfillment-service', getPeerJson(`${fulfillmentUrl}/inbox/audit?limit=${limit}`, peer)],
      ['accounting-service', getPeerJson(`${accountingUrl}/inbox/audit?limit=${limit}`, peer)],
    ];
    const audit: OpsAudit = { records: [], unavailable: [] };
    for (const [service, pending] of sections) {
      const section = await pending;
      if (section.status === 'ok') {
        audit.records.push(...section.data.map((r) => ({ ...r, service })));
      } else {
        audit.unavailable.push({ service, error: section.error });
      }
    }
    audit.records.sort((a, b) => b.at.localeCompare(a.at));
    audit.records.splice(limit);
    return audit;
  }
}
